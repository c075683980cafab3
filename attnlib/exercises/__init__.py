"""Auto-checked exercises: ``attnlib.exercises.check_...(your_answer)`` says right, or what is wrong.

Each notebook's checkers live in their own module and are gathered here.
"""

from ._feedback import Verdict

__all__ = ["Verdict"]
