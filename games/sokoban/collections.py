"""The bundled level collections (see games/engines/sokoban/levels/README.md for credits)."""

from __future__ import annotations

from pathlib import Path

from games.engines.sokoban import MICROBAN, MICROBAN_II

BUNDLED: dict[str, Path] = {
    "Microban": MICROBAN,
    "Microban II": MICROBAN_II,
}
UPLOADS = "Uploads"
