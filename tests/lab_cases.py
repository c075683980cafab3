"""The labs as the notebooks build them, read from attnlib's lab registry (``attnlib.labs.LABS``): for the
lab tests and the browser tests of the labs."""

from __future__ import annotations

from attnlib.labs.registry import LABS, build

# The labs whose page looks each setting's frame up (all but the live GPT lab, whose page runs the model
# and has tests of its own): their frames are compared with the page's at every setting.
NAMES = [name for name, entry in LABS.items() if entry.page_keys]

__all__ = ["LABS", "NAMES", "build"]
