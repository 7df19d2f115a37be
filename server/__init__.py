"""`solrec serve` (solrec.server): the web app's endpoints and addresses (app.py), its state on the app
and the blocking work on it (state.py), what a viewer sees (views.py), its pages (pages.py), the seat
tokens (seats.py), static script and style. It imports the workflows (solrec.workflows), never the CLI."""
