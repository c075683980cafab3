"""The exercises of notebook 01 (inner products and X·Xᵀ): the Gram matrix, cosines, a projection."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_
from .pipeline import Exercise, Mistake, OneOf, checkers

__all__ = ["check_cosine_matrix", "check_gram_matrix", "check_projection_length"]

# The running example of notebooks 01-03 (data/zao_shang_hao.json), one row per token; the other
# hidden inputs are never square (T != d), so a transposed answer shows in its shape.
ZAO = np.array([[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [0.5, 0.8, 0.0, 1.0]])
X_5x2 = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, -1.5], [2.0, 1.0], [-0.5, -0.5]])
X_2x6 = np.array([[0.5, -1.0, 2.0, 0.0, 1.0, -0.5], [1.5, 0.5, -1.0, 1.0, 0.0, 2.0]])
ROWS = [(ZAO,), (X_5x2,), (X_2x6,)]  # the hidden inputs of the exercises on X


def _rows(X: np.ndarray) -> dict[str, Any]:
    T, d = X.shape
    return {"T": T, "d": d, "label": N_("X of shape ({T}, {d})")}


def _unit_rows(X: np.ndarray) -> np.ndarray:
    return X / np.sqrt((X * X).sum(axis=1, keepdims=True))


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_gram(X):
    return X @ X.T


def solution_cosine(X):
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)  # every row scaled to length 1
    return unit @ unit.T


def solution_projection(a, b):
    return a @ b / np.linalg.norm(b)


GRAM_MATRIX = Exercise(
    name="check_gram_matrix",
    task="``my_gram(X)``: every dot product between rows, ``X·Xᵀ``",
    shapes="X (T, d) -> (T, T)",
    reference=solution_gram,  # G[i, j] = x_i · x_j
    inputs=ROWS,
    shape="(T, T)",
    facts=_rows,
    mistakes=[
        Mistake(
            "transposed",
            N_(
                "you computed Xᵀ·X, shape (d, d) = ({d}, {d}): that compares features with features. "
                "Tokens are the rows of X, so their dot products are X·Xᵀ, shape (T, T) = ({T}, {T})."
            ),
            wrong=lambda X: X.T @ X,
            watch=N_("computing Xᵀ·X (features against features) instead of X·Xᵀ"),
        ),
        Mistake(
            "elementwise",
            N_(
                "you squared X entry by entry (X * X), which keeps the shape (T, d). "
                "A dot product multiplies and then adds up: use the matrix product X @ X.T."
            ),
            wrong=lambda X: X * X,
            watch=N_("squaring X entry by entry (X * X) instead of a matrix product"),
        ),
        Mistake(
            "diagonal_only",
            N_(
                "you returned only each token's dot product with itself (the diagonal, squared lengths). "
                "The task wants every pair (i, j): a (T, T) matrix."
            ),
            wrong=lambda X: (X * X).sum(axis=1),
            watch=N_("returning only each row's dot product with itself"),
        ),
        Mistake(
            "normalised",
            N_(
                "you divided by the lengths: that is the cosine similarity. "
                "Here we want the raw dot products, lengths included."
            ),
            wrong=lambda X: _unit_rows(X) @ _unit_rows(X).T,
            watch=N_("dividing by the lengths (that gives cosines, not dot products)"),
        ),
    ],
    success=N_("right: entry (i, j) is row i · row j, a (T, T) matrix."),
)

COSINE_MATRIX = Exercise(
    name="check_cosine_matrix",
    task="``my_cosine(X)``: the cosine of the angle between every pair of rows",
    shapes="X (T, d) -> (T, T)",
    reference=solution_cosine,  # cos θ_ij = x_i·x_j / (|x_i| |x_j|)
    inputs=ROWS,
    shape="(T, T)",
    facts=_rows,
    mistakes=[
        Mistake(
            "raw_dot_products",
            N_("these are the raw dot products; divide entry (i, j) by |x_i| |x_j|."),
            wrong=lambda X: X @ X.T,
            watch=N_("forgetting to divide by the two lengths |x_i| |x_j|"),
        ),
        Mistake(
            "columns",
            N_(
                "you normalised the columns (axis=0). Each token is a row: divide each row by its own "
                "length, np.linalg.norm(X, axis=1, keepdims=True)."
            ),
            wrong=lambda X: _unit_rows(X.T).T @ _unit_rows(X.T),
            watch=N_("normalising the columns (axis=0) instead of the rows"),
        ),
        Mistake(
            "angle",
            N_("you returned the angle θ itself; the task asks for cos θ (no arccos needed)."),
            wrong=lambda X: OneOf(
                radians=np.arccos(np.clip(_unit_rows(X) @ _unit_rows(X).T, -1, 1)),
                degrees=np.degrees(np.arccos(np.clip(_unit_rows(X) @ _unit_rows(X).T, -1, 1))),
            ),
            watch=N_("returning the angle θ instead of cos θ"),
        ),
        Mistake(
            "one_sided",
            N_(
                "your matrix is not symmetric, but cos(x_i, x_j) = cos(x_j, x_i). "
                "Did you divide by one token's length only (or by |x_i|² instead of |x_i| |x_j|)?"
            ),
            spotted=lambda got, X: got.shape == (len(X), len(X)) and not np.allclose(got, got.T, atol=1e-6),
            watch=N_("dividing by only one of the two lengths"),
        ),
    ],
    success=N_("right: the dot products of the rows after scaling every row to length 1."),
)


def _pair(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    return {"a": a.tolist(), "b": b.tolist(), "d": a.size, "label": N_("a={a}, b={b}")}


PROJECTION_LENGTH = Exercise(
    name="check_projection_length",
    task="``my_projection(a, b)``: the signed length of a's projection onto b",
    shapes="a (d,), b (d,) -> ()",
    reference=solution_projection,  # |a| cos θ = a·b / |b|
    inputs=[
        (np.array([2.0, 1.0]), np.array([3.0, 0.0])),
        (np.array([1.0, 2.0, 2.0]), np.array([0.0, 3.0, 4.0])),
        (np.array([-2.0, 1.0]), np.array([1.5, 0.5])),  # obtuse: a negative projection
    ],
    shape="()",
    facts=_pair,
    mistakes=[
        Mistake(
            "vector",
            N_(
                "you returned a vector (the projection itself, shape (d,)). "
                "The task asks for its signed length: one number, a·b / |b|."
            ),
            spotted=lambda got, a, b: got.shape == b.shape,
            watch=N_("returning the projection vector instead of its signed length"),
        ),
        Mistake(
            "unsigned",
            N_(
                "right size, wrong sign: when θ > 90° the projection points away from b, "
                "so its signed length is negative. Don't take abs()."
            ),
            wrong=lambda a, b: abs(a @ b) / np.sqrt(b @ b),
            spotted=lambda got, a, b: a @ b < 0,
            watch=N_("dropping the sign when the angle is over 90°"),
        ),
        Mistake(
            "by_a",
            N_(
                "you divided by |a|. The projection of a onto b is measured along b, so divide a·b by |b| "
                "(it equals |a| cos θ)."
            ),
            wrong=lambda a, b: a @ b / np.sqrt(a @ a),
            watch=N_("dividing by |a| instead of |b|"),
        ),
        Mistake(
            "coefficient",
            N_(
                "you divided by |b|²: that is the number c with (projection vector) = c · b. "
                "Its signed length is c · |b| = a·b / |b|."
            ),
            wrong=lambda a, b: a @ b / (b @ b),
            watch=N_("dividing by |b|² instead of |b|"),
        ),
        Mistake(
            "cosine",
            N_("that is cos θ, with no length in it; the projection's length is |a| cos θ = a·b / |b|."),
            wrong=lambda a, b: a @ b / np.sqrt((a @ a) * (b @ b)),
            watch=N_("returning cos θ, without the length |a|"),
        ),
    ],
    success=N_("right: a·b / |b| = |a| cos θ, negative when the angle is over 90°."),
)


EXERCISES = (GRAM_MATRIX, COSINE_MATRIX, PROJECTION_LENGTH)
check_gram_matrix, check_cosine_matrix, check_projection_length = checkers(
    __name__, EXERCISES, taught="01 §Exercises"
)
