"""The package-index client (PEP 503/691 simple pages, cached HTTP) that both the KB updater and the resolvers use."""
