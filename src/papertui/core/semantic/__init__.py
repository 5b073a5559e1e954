"""Meaning over the corpus: paper vectors, related papers, topics and the "for you" ranking.

numpy (and scipy to build) are imported lazily by the modules here; nothing on the reader's
startup path imports this package's submodules. The overview (`overview`, `overview_terms`)
lives here too. It may import every package below the library, which alone imports it.
"""
