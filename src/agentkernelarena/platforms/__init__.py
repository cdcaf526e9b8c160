"""Platforms: where an evaluation runs (cuda, rocm, cpu), how it is detected and set up."""

from agentkernelarena.platforms.registry import PLATFORMS, Platform, detect_platform, get_platform

__all__ = ["PLATFORMS", "Platform", "detect_platform", "get_platform"]
