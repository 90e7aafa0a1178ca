"""Analysis of games and matches: every decision judged, statistics per player, reports.

placeholder
"""
from .decisions import Alternative, CubeError, Decision, Kind, Luck, LuckMark, Mark
from .engine import AnalysisError, Analyser, GameAnalysis, MatchAnalysis, Progress, Scale
from .statistics import PlayerStatistics

__all__ = [
    "Alternative",
    "AnalysisError",
    "Analyser",
    "CubeError",
    "Decision",
    "GameAnalysis",
    "Kind",
    "Luck",
    "LuckMark",
    "Mark",
    "MatchAnalysis",
    "PlayerStatistics",
    "Progress",
    "Scale",
]
