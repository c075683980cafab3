"""The "check your understanding" questions of the series, keyed by notebook number (00-09).

Plain data (no widgets are imported here): ``QUIZZES[n]`` is a list of questions for notebook ``n``,
each a dict with ``prompt``, ``options``, ``answer`` (index of the right option) and ``explain``
(one explanation per option: why that option is right or wrong). ``attnlib.quiz.quiz(n)`` shows them.
Wrong options are the misconceptions learners really hold, so each explanation names the mistake.

Every text is marked with ``N_``: the widget shows it through ``tr``, and the catalogues
(``attnlib/locale/<language>/quiz_*.json``) are keyed by this English text, so a change of wording
here needs the same change in every catalogue.
"""

# ruff: noqa: E501  (a question or an explanation reads best on one line)

from __future__ import annotations

from typing import Any

from .i18n import N_

__all__ = ["QUIZZES", "for_notebook"]

QUIZZES: dict[int, list[dict[str, Any]]] = {
    0: [
        {
            "prompt": N_("Q has shape (T_q, d_k) and K has shape (T_k, d_k). What is the shape of Q·Kᵀ?"),
            "options": [N_("(T_q, T_k)"), N_("(d_k, d_k)"), N_("(T_q, d_k)"), N_("(T_k, T_q)")],
            "answer": 0,
            "explain": [
                N_("Kᵀ is (d_k, T_k); the inner widths d_k meet and vanish. One score per (query, key) pair."),
                N_("That is the shape of Qᵀ·K, which compares features with features, not tokens with tokens."),
                N_("That is the shape of Q itself. Multiplying by Kᵀ replaces d_k with the number of keys."),
                N_("Rows are queries and columns are keys, not the other way round: that would be K·Qᵀ."),
            ],
        },
        {
            "prompt": N_("Each row of the attention weights A sums to 1. What does one row describe?"),
            "options": [
                N_("How much all queries attend to one key"),
                N_("How one query spreads its attention over all the keys"),
                N_("The embedding of one token"),
                N_("The probability that each token comes next"),
            ],
            "answer": 1,
            "explain": [
                N_("That is a column of A, and columns need not sum to 1: a popular key can collect a lot."),
                N_("Row i is query i's budget of 1, shared among the keys."),
                N_("Embeddings are rows of X (width d_model); A has one entry per (query, key) pair."),
                N_("Attention weights say where a token looks, not what comes next; no prediction here."),
            ],
        },
        {
            "prompt": N_("For Q·Kᵀ to exist, which sizes must be equal?"),
            "options": [
                N_("The number of queries and the number of keys (T_q = T_k)"),
                N_("d_v and d_k"),
                N_("The d_k of Q and the d_k of K"),
                N_("d_model and d_k"),
            ],
            "answer": 2,
            "explain": [
                N_("T_q and T_k may differ (a decoder reading an encoder's output does exactly that)."),
                N_("V does not appear in Q·Kᵀ at all; d_v only fixes the width of the output."),
                N_("A query is compared with a key by a dot product, so both must have the same width."),
                N_("W_q maps d_model to d_k precisely so that they need not be equal."),
            ],
        },
    ],
    1: [
        {
            "prompt": N_("X has one row per token. Why is X·Xᵀ always symmetric?"),
            "options": [
                N_("Because X is square"),
                N_("Because softmax makes it symmetric"),
                N_("Entry (i, j) is xᵢ·xⱼ, and a dot product does not depend on the order"),
                N_("It is symmetric only when the rows have length 1"),
            ],
            "answer": 2,
            "explain": [
                N_("X is (T, d_model) and usually not square; X·Xᵀ is square whatever X is."),
                N_("There is no softmax in X·Xᵀ; and softmax rows of a symmetric matrix are not symmetric."),
                N_("xᵢ·xⱼ = xⱼ·xᵢ, so entry (i, j) equals entry (j, i), for any X."),
                N_("Lengths change the numbers, not the symmetry: xᵢ·xⱼ = xⱼ·xᵢ always."),
            ],
        },
        {
            "prompt": N_("What is on the diagonal of X·Xᵀ?"),
            "options": [
                N_("Ones"),
                N_("Zeros: a token is not compared with itself"),
                N_("The length ‖xᵢ‖ of each row"),
                N_("The squared length ‖xᵢ‖² of each row"),
            ],
            "answer": 3,
            "explain": [
                N_("Only for rows of length 1; that is the cosine-similarity matrix, not X·Xᵀ."),
                N_("Entry (i, i) is xᵢ·xᵢ: the token compared with itself, which is rarely 0."),
                N_("Close: xᵢ·xᵢ is the sum of squares, so it is the length squared, not the length."),
                N_("xᵢ·xᵢ = Σ xᵢₖ² = ‖xᵢ‖². Long vectors get large diagonal entries."),
            ],
        },
        {
            "prompt": N_("The 2-D vectors (1, 0) and (1, 1): which is true?"),
            "options": [
                N_("They are orthogonal and linearly independent"),
                N_("They are linearly independent but not orthogonal"),
                N_("They are orthogonal but not linearly independent"),
                N_("They are neither"),
            ],
            "answer": 1,
            "explain": [
                N_("Their dot product is 1·1 + 0·1 = 1, not 0, so they are not orthogonal."),
                N_("Neither is a multiple of the other (independent), yet their dot product is 1 (not orthogonal)."),
                N_("Impossible for non-zero vectors: orthogonal non-zero vectors are always independent."),
                N_("They are independent: no number c gives (1, 1) = c·(1, 0)."),
            ],
        },
        {
            "prompt": N_("Two word vectors have a large dot product. What can you conclude?"),
            "options": [
                N_("Their cosine similarity is close to 1"),
                N_("They have the same length"),
                N_("They point in similar directions, or are long, or both"),
                N_("The words are synonyms"),
            ],
            "answer": 2,
            "explain": [
                N_("Not necessarily: long vectors at a wide angle can also give a large dot product."),
                N_("Length is not compared; a large dot product can come from two very different lengths."),
                N_("a·b = ‖a‖‖b‖cos θ mixes angle and length; divide by the lengths to see the angle alone."),
                N_("Embeddings put related words near each other, but related is not synonymous, and length counts."),
            ],
        },
    ],
    2: [
        {
            "prompt": N_("How do softmax([1, 2, 3]) and softmax([101, 102, 103]) compare?"),
            "options": [
                N_("The second is more peaked"),
                N_("They are identical"),
                N_("The second is closer to uniform"),
                N_("The second overflows and gives NaN"),
            ],
            "answer": 1,
            "explain": [
                N_("Only the differences between scores matter, and those are the same (1 and 2)."),
                N_("e^(x+c) = e^c·e^x: the factor e^c cancels in the normalisation, so a shift changes nothing."),
                N_("A shift changes nothing; to get closer to uniform you must shrink the differences."),
                N_("The naive formula would overflow for far larger scores; attnlib subtracts the row maximum first."),
            ],
        },
        {
            "prompt": N_("Multiply every score by 10 before softmax (a low temperature). The weights …"),
            "options": [
                N_("stay the same: softmax ignores scale"),
                N_("become uniform"),
                N_("move towards one-hot on the largest score"),
                N_("are all multiplied by 10"),
            ],
            "answer": 2,
            "explain": [
                N_("Softmax ignores a shift (adding a constant), not a scale: multiplying stretches the differences."),
                N_("That happens when you divide the scores by a large number (a high temperature)."),
                N_("The gaps between scores grow tenfold, so the largest score takes almost all the weight."),
                N_("Weights always sum to 1, so they cannot all grow; they are re-shared instead."),
            ],
        },
        {
            "prompt": N_("Why does a stable softmax subtract the row maximum before exponentiating?"),
            "options": [
                N_("So that exp never overflows; by shift invariance the result is unchanged"),
                N_("So that the weights sum to 1"),
                N_("So that the largest weight is exactly 1"),
                N_("So that small weights become exactly 0"),
            ],
            "answer": 0,
            "explain": [
                N_("After the shift every exponent is ≤ 0, so every e^x is in (0, 1]; the weights are the same."),
                N_("Dividing by the sum does that; the subtraction is about floating-point range."),
                N_("The largest exponential becomes e⁰ = 1, but after dividing by the sum its weight is below 1."),
                N_("Weights stay positive; only −∞ scores (masks) give exactly 0."),
            ],
        },
        {
            "prompt": N_("For finite scores, a softmax weight can be …"),
            "options": [
                N_("negative, when its score is negative"),
                N_("exactly 0, when its score is 0"),
                N_("greater than 1, when its score is large"),
                N_("strictly between 0 and 1 (when there are two or more scores)"),
            ],
            "answer": 3,
            "explain": [
                N_("e^x > 0 for every x: a negative score only makes the weight small."),
                N_("e⁰ = 1, so a score of 0 still gets weight. Remember this when we build masks in 06."),
                N_("Each weight is its exponential divided by a sum that contains it, so it is below 1."),
                N_("Positive because e^x > 0; below 1 because the other terms in the sum are positive too."),
            ],
        },
    ],
    3: [
        {
            "prompt": N_("Each output row of softmax(X·Xᵀ)·X is …"),
            "options": [
                N_("a weighted average of the rows of X, weighted by one softmax row"),
                N_("the input row multiplied by its own weight"),
                N_("a probability distribution over the tokens"),
                N_("a weighted sum of the columns of X"),
            ],
            "answer": 0,
            "explain": [
                N_("Output i = Σⱼ aᵢⱼ xⱼ with aᵢⱼ ≥ 0 and Σⱼ aᵢⱼ = 1: an average of all the token rows."),
                N_("Every token contributes, not only token i: that is the point of attention."),
                N_("That is the softmax row itself; multiplying by X turns it into a vector of width d_model."),
                N_("The weights mix rows (tokens); the columns (features) are never mixed with each other."),
            ],
        },
        {
            "prompt": N_("In 2-D, where can the output points lie?"),
            "options": [
                N_("Anywhere in the plane"),
                N_("Only exactly on the input points"),
                N_("Inside the convex hull of the input points"),
                N_("On the line through the origin and the centroid"),
            ],
            "answer": 2,
            "explain": [
                N_("Non-negative weights that sum to 1 cannot leave the region spanned by the inputs."),
                N_("Only in the one-hot limit; with finite scores every output is a proper mixture."),
                N_("A convex combination of points lies in their convex hull: that is its definition."),
                N_("Different rows have different weights, so outputs spread over the hull, not along one line."),
            ],
        },
        {
            "prompt": N_("Divide all scores by a larger and larger number (scale → 0). Every output moves to …"),
            "options": [
                N_("the input with the largest score in its row"),
                N_("the centroid (mean) of the inputs"),
                N_("the origin"),
                N_("nowhere: scaling the scores does not change the weights"),
            ],
            "answer": 1,
            "explain": [
                N_("That is the opposite limit, scale → ∞, where each softmax row becomes one-hot."),
                N_("All scores tend to 0, the weights to 1/T each, and every output to the plain average."),
                N_("Weights sum to 1, so outputs stay inside the hull; the origin may not even be in it."),
                N_("Scaling changes softmax (only shifts do not): weights go from peaked to uniform."),
            ],
        },
        {
            "prompt": N_("What can softmax(X·Xᵀ)·X not do, that Q, K and V will fix?"),
            "options": [
                N_("Keep the rows of the weights summing to 1"),
                N_("Give an output of the same width as the input"),
                N_("Give a token different roles: one vector is its query, its key and its value, so X·Xᵀ is symmetric"),
                N_("Work with more than three tokens"),
            ],
            "answer": 2,
            "explain": [
                N_("It does keep them summing to 1: that is softmax's job."),
                N_("It does: the output is (T, d_model), like X."),
                N_("Even with learned embeddings, xᵢ·xⱼ = xⱼ·xᵢ and what a token looks for is what it is; the linear maps W_Q, W_K, W_V give it three separate roles."),
                N_("Nothing limits T; the toy example is small only so it can be checked by hand."),
            ],
        },
    ],
    4: [
        {
            "prompt": N_("Which describes the roles of Q, K and V?"),
            "options": [
                N_("Q: what a token hands over; K: what it looks for; V: what it answers to"),
                N_("Q: what a token looks for; K: what it answers to; V: what it hands over"),
                N_("They are three copies of X, kept apart for speed"),
                N_("Q and K are learned; V is always X itself"),
            ],
            "answer": 1,
            "explain": [
                N_("Shuffled: the values are what gets handed over, the queries what gets asked."),
                N_("Queries are matched against keys to score each pair; values are what the weights then average."),
                N_("They are X times three different learned matrices, so they differ, and d_k may differ from d_model."),
                N_("V = X·W_V is learned too; only with W_V = I would it be X."),
            ],
        },
        {
            "prompt": N_("Is Q·Kᵀ = X·W_Q·W_Kᵀ·Xᵀ symmetric?"),
            "options": [
                N_("Yes, like X·Xᵀ"),
                N_("Only when d_k = d_model"),
                N_("Always antisymmetric"),
                N_("Not in general: token a can attend to b without b attending to a"),
            ],
            "answer": 3,
            "explain": [
                N_("Its transpose is X·W_K·W_Qᵀ·Xᵀ, which differs unless W_Q·W_Kᵀ is symmetric (e.g. W_Q = W_K)."),
                N_("Widths do not matter; what matters is whether W_Q·W_Kᵀ equals its transpose."),
                N_("Nothing forces (i, j) = −(j, i); the diagonal qᵢ·kᵢ is usually not 0."),
                N_("Two different linear maps break the symmetry: asking and answering are separate roles."),
            ],
        },
        {
            "prompt": N_("X is (6, 16), W_Q is (16, 4) and W_V is (16, 8). What are the shapes of Q and V?"),
            "options": [
                N_("Q (6, 4), V (6, 8)"),
                N_("Q (16, 4), V (16, 8)"),
                N_("Q (6, 16), V (6, 16)"),
                N_("Q (4, 6), V (8, 6)"),
            ],
            "answer": 0,
            "explain": [
                N_("One row per token (6), and the width set by each linear map: d_k = 4, d_v = 8."),
                N_("Those are the shapes of the weight matrices, not of the projected tokens."),
                N_("The linear maps change the width from d_model = 16 to d_k or d_v."),
                N_("Tokens stay rows: (6, 16) @ (16, 4) is (6, 4), not its transpose."),
            ],
        },
        {
            "prompt": N_("With W_Q = W_K = W_V = I and no √d_k scaling, softmax(Q·Kᵀ)·V equals …"),
            "options": [
                N_("X"),
                N_("softmax(X·Xᵀ)·X, the notebook 03 result"),
                N_("softmax(X)·X"),
                N_("the identity matrix"),
            ],
            "answer": 1,
            "explain": [
                N_("Only if every softmax row were one-hot on its own token; in general tokens are mixed."),
                N_("Q = K = V = X, so the formula is exactly the parameter-free version from notebook 03."),
                N_("The softmax is taken over scores Q·Kᵀ = X·Xᵀ, not over X."),
                N_("The weights are a (T, T) matrix but not the identity, and the output is (T, d_model)."),
            ],
        },
    ],
    5: [
        {
            "prompt": N_("q and k have d_k independent entries, each with mean 0 and variance 1. What is the variance of q·k?"),
            "options": [N_("1"), N_("√d_k"), N_("d_k"), N_("d_k²")],
            "answer": 2,
            "explain": [
                N_("Each product qᵢkᵢ has variance 1, but q·k adds d_k of them."),
                N_("√d_k is the standard deviation, not the variance."),
                N_("A sum of d_k independent terms of variance 1 has variance d_k."),
                N_("Variances of independent terms add; they do not multiply."),
            ],
        },
        {
            "prompt": N_("q and k have independent entries of mean 0 and variance 1, as at initialisation. Why divide the scores by √d_k and not by d_k?"),
            "options": [
                N_("Dividing by d_k would give these scores variance 1 as well; √d_k is just a convention"),
                N_("Var(q·k / c) = d_k / c², which is 1 for c = √d_k"),
                N_("So that each row of scores sums to 1"),
                N_("Because √d_k is the length of q"),
            ],
            "answer": 1,
            "explain": [
                N_("For these q and k, dividing by d_k gives variance 1/d_k: scores shrink and weights flatten as d_k grows. (Some models do divide by d_k, μP for one, because after training q and k are no longer independent: 05 §3.)"),
                N_("Scaling by 1/c scales the variance by 1/c², so c = √d_k brings it back to 1 for every d_k."),
                N_("Scaling does not make rows sum to 1; softmax does that afterwards."),
                N_("‖q‖ is about √d_k on average, but it varies; the argument is about variance, not one vector."),
            ],
        },
        {
            "prompt": N_("Without the scaling, as d_k grows, each softmax row becomes …"),
            "options": [
                N_("nearly uniform"),
                N_("nearly one-hot: largest weight → 1, entropy → 0"),
                N_("unchanged: softmax does not depend on d_k"),
                N_("negative for large d_k"),
            ],
            "answer": 1,
            "explain": [
                N_("Growing variance means larger gaps between scores, which sharpens softmax instead."),
                N_("Scores spread out like √d_k, so the largest one wins more and more of the weight."),
                N_("Softmax depends on the gaps between scores, and those grow with d_k."),
                N_("Softmax weights are always positive."),
            ],
        },
        {
            "prompt": N_("The loss reaches the scores through the weights, as through O = A·V. Why does a saturated (nearly one-hot) softmax hurt training?"),
            "options": [
                N_("It produces NaN"),
                N_("It makes the output zero"),
                N_("Its Jacobian diag(p) − p·pᵀ is nearly 0, so almost no gradient reaches Q and K"),
                N_("It does not: a confident softmax trains fastest"),
            ],
            "answer": 2,
            "explain": [
                N_("A stable softmax stays finite; the problem is gradients, not values."),
                N_("The output becomes one value row, not zero."),
                N_("With p ≈ one-hot, every entry p_i(δ_ij − p_j) is ≈ 0: a gradient that must pass through it barely reaches the scores."),
                N_("Confidence reached too early freezes the scores when the gradient must pass through the softmax's Jacobian. (A loss on the weights themselves, such as −log A_ij, escapes it: notebook 05 measures both.)"),
            ],
        },
    ],
    6: [
        {
            "prompt": N_("To stop a query attending to key j, why set the score to −∞ rather than 0?"),
            "options": [
                N_("0 works just as well"),
                N_("e⁰ = 1 still gives key j a positive weight; e^(−∞) = 0 gives exactly 0"),
                N_("A score of 0 would make the weight negative"),
                N_("−∞ is only a convention; −1 would do"),
            ],
            "answer": 1,
            "explain": [
                N_("A score of 0 is an ordinary score: the key still gets weight e⁰ / Σ, often a large share."),
                N_("Only −∞ (before softmax) removes a key exactly, and the row still sums to 1 over the rest."),
                N_("Weights are never negative; the trouble is that a score of 0 leaves a positive weight."),
                N_("e^(−1) ≈ 0.37: still a real share. A very negative finite number does give weight 0, and libraries use the most negative one the dtype holds, np.finfo(dtype).min (06 §7), but −1 is nowhere near it."),
            ],
        },
        {
            "prompt": N_("In a causal mask for T = 4, which scores are set to −∞?"),
            "options": [
                N_("Those below the diagonal (j < i)"),
                N_("Those on the diagonal"),
                N_("Those above the diagonal (j > i): no token may look at later tokens"),
                N_("The last column"),
            ],
            "answer": 2,
            "explain": [
                N_("Those are the earlier tokens, which a token is allowed to see."),
                N_("A token may attend to itself; masking the diagonal would leave the first row empty."),
                N_("Row i is query i; keys j > i are in its future, so they are blocked."),
                N_("The mask is a triangle, not a column: the last query may see the last key, earlier ones may not."),
            ],
        },
        {
            "prompt": N_("A batch is padded to one length. What does the padding mask block?"),
            "options": [
                N_("The padding keys (columns), so no token takes information from padding"),
                N_("The padding queries (rows) only"),
                N_("Every token of the shorter sentences"),
                N_("The diagonal"),
            ],
            "answer": 0,
            "explain": [
                N_("Key padding: the columns of padding tokens get weight exactly 0, and rows still sum to 1."),
                N_("Blocking a whole query row leaves nothing to normalise; padded rows are just ignored afterwards."),
                N_("The real tokens of a short sentence attend to each other as usual."),
                N_("The diagonal has nothing to do with padding."),
            ],
        },
        {
            "prompt": N_("You set the masked weights to 0 after softmax. What else is needed to match −∞ before softmax?"),
            "options": [
                N_("Nothing"),
                N_("Multiply by √d_k"),
                N_("Subtract the row maximum"),
                N_("Divide each row by its new sum, so it sums to 1 again"),
            ],
            "answer": 3,
            "explain": [
                N_("After zeroing, the row sums to less than 1: the output shrinks towards 0."),
                N_("Scaling is about score variance, not about masks."),
                N_("That matters before exponentiating, not after softmax."),
                N_("Renormalised, each weight is e^(s_j) over the sum for the allowed keys only: the −∞ result."),
            ],
        },
    ],
    7: [
        {
            "prompt": N_("Q is (T_q, d_k), K is (T_k, d_k), V is (T_k, d_v). What is the shape of O = softmax(Q·Kᵀ/√d_k + M)·V?"),
            "options": [N_("(T_k, d_v)"), N_("(T_q, d_k)"), N_("(T_q, T_k)"), N_("(T_q, d_v)")],
            "answer": 3,
            "explain": [
                N_("One output per query, not per key."),
                N_("The output width comes from V (d_v), not from Q and K."),
                N_("That is the shape of the weights A; multiplying by V turns each row into a vector."),
                N_("(T_q, T_k) @ (T_k, d_v): one row per query, of the width of a value."),
            ],
        },
        {
            "prompt": N_("Over which axis does the softmax normalise?"),
            "options": [
                N_("The last axis (the keys): each query's row sums to 1"),
                N_("The query axis: each column sums to 1"),
                N_("All entries at once"),
                N_("The d_k axis"),
            ],
            "answer": 0,
            "explain": [
                N_("Each query shares out one unit of attention among the keys."),
                N_("A classic bug: columns summing to 1 mix the queries' budgets."),
                N_("Then one query could take all the attention and the others none."),
                N_("The scores no longer have a d_k axis: Q·Kᵀ summed it away."),
            ],
        },
        {
            "prompt": N_("In which order are the steps applied?"),
            "options": [
                N_("Q·Kᵀ → softmax → add M → ÷√d_k → ·V"),
                N_("Q·Kᵀ → ÷√d_k → add M → softmax → ·V"),
                N_("Q·Kᵀ → ÷√d_k → softmax → ·V → add M"),
                N_("softmax(Q) · softmax(K)ᵀ → ·V"),
            ],
            "answer": 1,
            "explain": [
                N_("Adding −∞ after softmax leaves −∞ in the weights; the mask must come before softmax."),
                N_("Scores, scaled, masked, normalised per row, then the average of the values."),
                N_("The mask belongs to the scores (T_q, T_k), not to the output (T_q, d_v)."),
                N_("Softmax is applied to the scores, not to Q and K separately."),
            ],
        },
        {
            "prompt": N_("The output row of one word (say “green”) is …"),
            "options": [
                N_("its own value vector, unchanged"),
                N_("its query vector, scaled"),
                N_("a weighted average of the value rows of the tokens it may attend to"),
                N_("the sum of all value rows"),
            ],
            "answer": 2,
            "explain": [
                N_("Only if all its weight sat on itself; usually other tokens contribute."),
                N_("Queries only score the keys; the output is made of values."),
                N_("The weights in its row pick how much of each allowed token's value to mix in."),
                N_("The weights are not all 1: they sum to 1, so it is an average, not a sum."),
            ],
        },
    ],
    8: [
        {
            "prompt": N_("A layer has d_model = 384 and 12 heads. How wide are the queries and keys of one head?"),
            "options": [N_("384"), N_("12"), N_("32"), N_("4608")],
            "answer": 2,
            "explain": [
                N_("Each head works on a slice of Q, K and V, not on the full width."),
                N_("12 is the number of heads, not their width."),
                N_("d_k = d_model / n_heads = 384 / 12 = 32; so each head divides its scores by √32, not √384."),
                N_("That would be 12 heads of full width each; the width is split, not multiplied."),
            ],
        },
        {
            "prompt": N_("Splitting Q of shape (T, d_model) into heads gives an array of shape …"),
            "options": [N_("(n_heads, T, d_k)"), N_("(T, n_heads)"), N_("(n_heads, d_model, T)"), N_("(d_k, T, n_heads)")],
            "answer": 0,
            "explain": [
                N_("Reshape to (T, n_heads, d_k), then move the head axis first: one (T, d_k) matrix per head."),
                N_("Every head keeps a vector per token, not a single number."),
                N_("The width per head is d_k = d_model / n_heads, and tokens stay before features."),
                N_("Features stay on the last axis; batch-like axes (here the heads) go in front."),
            ],
        },
        {
            "prompt": N_("A short sentence is padded to the length of a longer one in the same batch. Its attention equals the attention it gets alone when …"),
            "options": [
                N_("the padding embeddings are zero vectors"),
                N_("the padding keys are masked with −∞"),
                N_("the padding is placed before the sentence"),
                N_("the scores are divided by the number of real tokens"),
            ],
            "answer": 1,
            "explain": [
                N_("Zero inputs still give keys equal to the bias, with finite scores: the padding still takes weight."),
                N_("Masked keys get weight exactly 0, so the real tokens share their attention exactly as when alone."),
                N_("Without a mask every padding key takes some weight wherever it sits; and in a model with absolute positions, such as MiniLM, moving the padding in front shifts every real token's position and so changes its embedding."),
                N_("Scaling changes how peaked the weights are; it cannot give the padding exactly 0."),
            ],
        },
    ],
    9: [
        {
            "prompt": N_("A GPT is trained with the causal mask. Changing the tokens after position t changes its prediction (the logits) at position t …"),
            "options": [N_("not at all"), N_("a little, through the softmax"), N_("only in the last layer"), N_("only when the changed token is the target")],
            "answer": 0,
            "explain": [
                N_("Position t attends to positions 0..t only, in every layer, so nothing after t reaches its prediction."),
                N_("Masked keys get weight exactly 0, not a small weight: there is no path at all."),
                N_("Every layer is masked; a later layer only sees the earlier layers' outputs at positions 0..t."),
                N_("Token t+1 is the target of position t: changing it changes the loss at t, which compares the prediction with it (notebook 09 measures this), but never the prediction, made from tokens 0..t alone."),
            ],
        },
        {
            "prompt": N_("The same model trained without the mask reaches a much lower training loss. When it generates text one token at a time it …"),
            "options": [
                N_("writes better text, since its loss is lower"),
                N_("writes about as well as the masked model"),
                N_("does worse than the masked model: the future it learned to copy from is not there yet"),
                N_("cannot run at all: an unmasked model has no next-token output"),
            ],
            "answer": 2,
            "explain": [
                N_("Its low loss came from reading token t+1 at position t, an answer that generation never provides."),
                N_("Measured in notebook 09: its loss when predicting from the past alone is far above the masked model's."),
                N_("It learned to look at the next token; with only the past available, that skill is useless."),
                N_("It still outputs logits at every position; the problem is what it learned to base them on."),
            ],
        },
        {
            "prompt": N_("Why does a key/value cache give exactly the same tokens as recomputing the whole sequence?"),
            "options": [
                N_("Because the cache stores the logits of earlier steps"),
                N_("Because of the causal mask: keys and values of earlier positions never depend on later tokens"),
                N_("Because attention is linear in V"),
                N_("It does not: a cache is an approximation that trades accuracy for speed"),
            ],
            "answer": 1,
            "explain": [
                N_("The cache stores keys and values; the new token's logits are still computed fresh each step."),
                N_("Under the mask position i only sees 0..i in every layer, so its K and V are final once computed."),
                N_("Linearity in V does not help: without the mask the earlier keys themselves would change."),
                N_("With the mask it is exact (notebook 09 measures a difference at float precision); without it the cache would be wrong."),
            ],
        },
        {
            "prompt": N_("Generating with temperature τ samples from softmax(logits / τ). A smaller τ …"),
            "options": [
                N_("makes the choice more random"),
                N_("makes the choice closer to always taking the most likely token"),
                N_("changes which token is most likely"),
                N_("only matters for tokens outside the vocabulary"),
            ],
            "answer": 1,
            "explain": [
                N_("Dividing by a small τ stretches the gaps between logits, so the distribution gets more peaked, not flatter."),
                N_("As τ → 0 all the probability goes to the largest logit (greedy decoding), as in notebook 02's temperature lab."),
                N_("Dividing every logit by the same τ > 0 keeps their order: the favourite stays the favourite."),
                N_("The model only ever outputs probabilities for its own vocabulary."),
            ],
        },
    ],
}


def for_notebook(number: int) -> list[dict[str, Any]]:
    """The questions for notebook ``number``, in English (the widget translates them where shown).

    Parameters
    ----------
    number : int
        The notebook number, 0 to 9.

    Returns
    -------
    list of dict
        The questions, each with ``prompt``, ``options``, ``answer`` and ``explain``.

    Raises
    ------
    ValueError
        When there is no quiz for ``number``; the message names the numbers that exist.

    Serves: the quiz at the end of each notebook, not called in the notebooks by name.
    """
    if number not in QUIZZES:
        raise ValueError(f"no quiz for notebook {number!r}; there are quizzes for {sorted(QUIZZES)}")
    return QUIZZES[number]
