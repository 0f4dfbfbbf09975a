"""The browser side of Cardavia: HTML pages, static ES modules, UI catalogs, rules pages."""
