"""Semantic operations over texts: embeddings, similarity, and scores built on them."""
