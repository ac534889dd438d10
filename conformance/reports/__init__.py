"""Reports of a run: the JSON Lines file, its reader, the HTML and Markdown page."""
