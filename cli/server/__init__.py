"""`solrec serve`: the web app (app.py), its pages (pages.py), the seat tokens (seats.py), static script and style."""
