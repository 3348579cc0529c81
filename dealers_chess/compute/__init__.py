"""The one place that talks to Ray: plays batches of games on this machine's cores or on a Ray cluster."""
