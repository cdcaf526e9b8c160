"""Known-wrong variants of RoIAlign."""

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "_roi_align_reference", pathlib.Path(__file__).with_name("reference.py"))
_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ref)


def not_aligned(features, rois, spatial_scale, P):
    # aligned=False: no half-pixel offset (and roi sides clamped to at least 1).
    return _ref.roi_align(features, rois, spatial_scale, P, aligned=False)


def one_sample(features, rois, spatial_scale, P):
    # One sample at each bin's centre instead of a 2 x 2 grid.
    return _ref.roi_align(features, rois, spatial_scale, P, sampling=1)
