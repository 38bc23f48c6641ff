"""What every app shares and no game knows of: domain errors and the API edge."""
