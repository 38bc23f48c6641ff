"""Ratings: Glicko-2 per player and pool, written when a rated match ends."""
