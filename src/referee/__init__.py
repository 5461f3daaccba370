"""referee: a scorekeeper and referee for dice and card games played at a real table."""

__version__ = "0.1.0"
