"""Meaning over the corpus: document vectors, related papers, topics."""
