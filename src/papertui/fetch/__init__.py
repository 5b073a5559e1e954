"""Fetching papers from the places researchers get them: Hugging Face Daily Papers, arXiv's
category feeds and search API, Paper Copilot's conference lists and OpenReview.

The only code in papertui that speaks HTTP (with httpx). It writes ordinary JSONL dumps under
the data dir (`fetched/SOURCE/KEY.jsonl`) that every command reads; the core never imports it,
and neither does the reader's start-up path (the `R` key imports it when pressed).
"""
