"""Tournaments: Swiss and arena events of a server, as one feature."""
