"""`papertui serve`: the reader in a browser tab, through textual-serve, with a token on every
request. `options` checks what was asked (no web code); `access` guards every request;
`sessions` runs a reader per tab; `server` ties them to aiohttp. Only `commands/serving.py`
imports this package, so the reader and the other commands never load aiohttp.
"""
