"""The Textual reader. Composes widgets and routes messages; the work is done by the core."""
