"""The Flask dashboard: the table screen, each seat's phone, the host."""
