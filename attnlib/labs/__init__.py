"""Slider labs drawn in the page: Python computes the numbers with attnlib, an ES module draws them.

One Python module and one ES module per lab, side by side (``dot_product.py`` feeds
``dot_product.js``); ``base`` holds the widget and the controls, ``registry`` every lab as its notebook
makes it (:data:`LABS`). What the page modules share (the kit, the bundler, the mount) is ``attnlib.page``.
"""

from .base import Control, Lab
from .convex_hull import make_convex_hull_lab
from .dk import DK_STEPS, make_dk_lab
from .dot_product import make_dot_product_lab
from .generation import generation_lab_data, make_generation_lab
from .kv_cache import make_kv_cache_lab
from .live_gpt import make_live_gpt_lab
from .mask import MASK_TYPES, PAD, make_mask_lab
from .qkv import make_qkv_lab
from .registry import LABS, LabEntry
from .rope import make_rope_lab
from .softmax_scale import make_softmax_scale_lab
from .tiling import make_tiling_lab
from .whole_formula import make_whole_formula_lab

__all__ = [
    "DK_STEPS", "LABS", "MASK_TYPES", "PAD", "Control", "Lab", "LabEntry", "generation_lab_data",
    "make_convex_hull_lab", "make_dk_lab", "make_dot_product_lab", "make_generation_lab", "make_kv_cache_lab",
    "make_live_gpt_lab", "make_mask_lab", "make_qkv_lab", "make_rope_lab", "make_softmax_scale_lab",
    "make_tiling_lab", "make_whole_formula_lab",
]
