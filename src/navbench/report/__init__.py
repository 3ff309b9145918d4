"""Reports: paper-style tables, figures (bird's-eye views, charts) and HTML."""
