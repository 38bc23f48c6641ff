"""Quick pairing: players seek a game and are paired with others of their strength."""
