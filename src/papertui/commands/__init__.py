"""The CLI's commands, one function each, grouped by what they work on; `papertui.cli`
dispatches to them from the table in `cli_args`."""
