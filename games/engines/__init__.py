"""Pure-Python rule engines, one module a game, all behind ``base.Engine``.

Nothing here may import Django, DRF or Channels (tests/engines checks it).
"""
