"""Terms, parser, unification, semi-naive engine, provenance and the Horn model builder."""
