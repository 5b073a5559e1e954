"""The machine papertui runs on: where its files live (`paths`), the user's settings
(`settings`), writing a file so that a crash leaves the old one or the new one
(`atomic_file`), the clipboard, child processes that end with their parent (`lifeline`),
completing a typed path, and the debug log (`debug_log`, papertui.log). Imports nothing else
of papertui: every other package may use it."""
