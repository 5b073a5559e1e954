"""The pure core: corpus, search, store and the library model. Never imports textual."""
