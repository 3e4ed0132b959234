"""References for test/e2e/hk-run-user.test: each takes the kernel's
arguments (views as float64 arrays) and returns its outputs."""


def reference(x, y, s):
    return s * x


def both(x, y, s):
    return {"x": s * x, "y": s * x}


def twice(x, y, s):
    return 2 * s * x


def gemm(a, b, c):
    return a @ b.T


def failing(x, y, s):
    raise ValueError("no reference today")


def too_many(x, y, s):
    return s * x, s * x
