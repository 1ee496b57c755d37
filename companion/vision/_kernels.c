/* The card finder's inner loops in C: see kernels.py, which documents each function,
 * checks its arguments and falls back to numpy where this module was not built.
 *
 * Arrays arrive through the buffer protocol (any strides, so numpy slices need no
 * copy): float32 or float64 as each function says; results are written into arrays
 * the caller allocated. No numpy headers are needed to build it. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    char *data;
    Py_ssize_t rows, cols, row_step, col_step; /* steps in bytes */
} Array;

/* A 1-D or 2-D buffer of items of `format` ("f": float32, "d": float64, "q"/"l": int64). */
static int get_array(PyObject *object, Array *array, const char *format, int ndim, int writable) {
    int flags = PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, &array->view, flags) < 0) return 0;
    const char *got = array->view.format ? array->view.format : "B";
    if (got[0] == '<' || got[0] == '=' || got[0] == '@') got++;
    int same = strcmp(got, format) == 0 || (strcmp(format, "q") == 0 && strcmp(got, "l") == 0 && sizeof(long) == 8);
    if (array->view.ndim != ndim || !same) {
        PyErr_Format(PyExc_TypeError, "expected a %d-D array of format '%s', got %d-D '%s'", ndim, format,
                     array->view.ndim, got);
        PyBuffer_Release(&array->view);
        return 0;
    }
    array->data = array->view.buf;
    array->rows = array->view.shape[0];
    array->row_step = array->view.strides[0];
    array->cols = ndim == 2 ? array->view.shape[1] : 1;
    array->col_step = ndim == 2 ? array->view.strides[1] : 0;
    return 1;
}

#define F32(a, i, j) (*(float *)((a).data + (i) * (a).row_step + (j) * (a).col_step))
#define F64(a, i) (*(double *)((a).data + (i) * (a).row_step))
#define I64(a, i) (*(long long *)((a).data + (i) * (a).row_step))

/* thin(g, threshold, out, transposed): |g| where it peaks along each row (or, transposed,
 * down each column, written as out's rows) above threshold; out is zeroed first. */
static PyObject *thin(PyObject *self, PyObject *args) {
    PyObject *g_object, *out_object;
    double threshold;
    int transposed;
    if (!PyArg_ParseTuple(args, "OdOp", &g_object, &threshold, &out_object, &transposed)) return NULL;
    Array g, out;
    if (!get_array(g_object, &g, "f", 2, 0)) return NULL;
    if (!get_array(out_object, &out, "f", 2, 1)) { PyBuffer_Release(&g.view); return NULL; }
    Py_ssize_t lines = transposed ? g.cols : g.rows, length = transposed ? g.rows : g.cols;
    if (out.rows != lines || out.cols != length) {
        PyErr_SetString(PyExc_ValueError, "out has the wrong shape");
    } else {
        for (Py_ssize_t line = 0; line < lines; line++) {
            F32(out, line, 0) = 0.0f;
            F32(out, line, length - 1) = 0.0f;
        }
        if (!transposed) {
            for (Py_ssize_t i = 0; i < g.rows; i++)
                for (Py_ssize_t j = 1; j < g.cols - 1; j++) {
                    float a = fabsf(F32(g, i, j));
                    F32(out, i, j) = (a > threshold && a >= fabsf(F32(g, i, j - 1)) && a > fabsf(F32(g, i, j + 1))) ? a : 0.0f;
                }
        } else {
            for (Py_ssize_t j = 0; j < g.cols; j++)
                for (Py_ssize_t i = 1; i < g.rows - 1; i++) {
                    float a = fabsf(F32(g, i, j));
                    F32(out, j, i) = (a > threshold && a >= fabsf(F32(g, i - 1, j)) && a > fabsf(F32(g, i + 1, j))) ? a : 0.0f;
                }
        }
    }
    PyBuffer_Release(&g.view);
    PyBuffer_Release(&out.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* coverage(thin_rows, out): per column, the share of rows with an edge within a pixel. */
static PyObject *coverage(PyObject *self, PyObject *args) {
    PyObject *thin_object, *out_object;
    if (!PyArg_ParseTuple(args, "OO", &thin_object, &out_object)) return NULL;
    Array t, out;
    if (!get_array(thin_object, &t, "f", 2, 0)) return NULL;
    if (!get_array(out_object, &out, "d", 1, 1)) { PyBuffer_Release(&t.view); return NULL; }
    if (out.rows != t.cols) {
        PyErr_SetString(PyExc_ValueError, "out has the wrong length");
    } else {
        Py_ssize_t cols = t.cols;
        for (Py_ssize_t j = 0; j < cols; j++) F64(out, j) = 0.0;
        for (Py_ssize_t i = 0; i < t.rows; i++) { /* row by row: the rows are contiguous */
            int before = 0, at = F32(t, i, 0) > 0;
            for (Py_ssize_t j = 0; j < cols; j++) {
                int after = j + 1 < cols && F32(t, i, j + 1) > 0;
                if (before || at || after) F64(out, j) += 1.0;
                before = at;
                at = after;
            }
        }
        for (Py_ssize_t j = 0; j < cols; j++) F64(out, j) /= (double)t.rows;
    }
    PyBuffer_Release(&t.view);
    PyBuffer_Release(&out.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* pair_search(cover, profile, span, reach, depth, rim, mismatch_weight) -> offset, or
 * -1 - reach when no pair fits. */
static PyObject *pair_search(PyObject *self, PyObject *args) {
    PyObject *cover_object, *profile_object;
    Py_ssize_t span, reach, depth, rim;
    double weight;
    if (!PyArg_ParseTuple(args, "OOnnnnd", &cover_object, &profile_object, &span, &reach, &depth, &rim, &weight))
        return NULL;
    Array cover, profile;
    if (!get_array(cover_object, &cover, "d", 1, 0)) return NULL;
    if (!get_array(profile_object, &profile, "f", 2, 0)) { PyBuffer_Release(&cover.view); return NULL; }
    Py_ssize_t channels = profile.cols, n = cover.rows, best_offset = -1 - reach;
    double best = -INFINITY, count = (double)(depth * channels);
    double *first = malloc(sizeof(double) * depth * channels), *second = malloc(sizeof(double) * depth * channels);
    if (profile.rows < n || !first || !second) {
        if (first && second) PyErr_SetString(PyExc_ValueError, "profile is shorter than cover");
        else PyErr_NoMemory();
    } else {
        for (Py_ssize_t offset = -reach; offset <= reach; offset++) {
            Py_ssize_t start = reach + offset, end = start + span;
            if (start < 1 || end > n - 2 || start + depth >= n || end - depth < 0) continue;
            for (Py_ssize_t c = 0; c < channels; c++) {
                double sum_first = 0.0, sum_second = 0.0;
                for (Py_ssize_t k = 0; k < depth; k++) {
                    first[k * channels + c] = F32(profile, start + 1 + k, c);
                    second[k * channels + c] = F32(profile, end - 1 - k, c);
                    sum_first += first[k * channels + c];
                    sum_second += second[k * channels + c];
                }
                for (Py_ssize_t k = 0; k < depth; k++) {
                    first[k * channels + c] -= sum_first / depth;
                    second[k * channels + c] -= sum_second / depth;
                }
            }
            double spread_first = 0.0, spread_second = 0.0, apart = 0.0;
            for (Py_ssize_t k = 0; k < depth * channels; k++) {
                spread_first += fabs(first[k]);
                spread_second += fabs(second[k]);
                apart += fabs(first[k] - second[k]);
            }
            double scale = fmax(8.0, spread_first / count + spread_second / count);
            double first_side = F64(cover, start), second_side = F64(cover, end);
            for (Py_ssize_t inset = 1; inset <= rim; inset++) { /* a rim is far narrower than a card */
                first_side = fmax(first_side, F64(cover, start + inset));
                second_side = fmax(second_side, F64(cover, end - inset));
            }
            double value = fmin(first_side, 0.9) + fmin(second_side, 0.9) - apart / count / scale * weight;
            if (value > best) {
                best = value;
                best_offset = offset;
            }
        }
    }
    free(first);
    free(second);
    PyBuffer_Release(&cover.view);
    PyBuffer_Release(&profile.view);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromSsize_t(best_offset);
}

typedef struct {
    float weight;
    Py_ssize_t order;
} Point;

/* strongest first; of equal weights the earlier point (row by row) first */
static int stronger_first(const void *a, const void *b) {
    const Point *p = a, *q = b;
    if (p->weight != q->weight) return p->weight > q->weight ? -1 : 1;
    return p->order < q->order ? -1 : (p->order > q->order);
}

/* turn_sharpness(thin_rows, low, high, t_offset, sign, turns, most_points, weight_cap,
 * sharpness): adds each trial turn's sharpness (see kernels.py). */
static PyObject *turn_sharpness(PyObject *self, PyObject *args) {
    PyObject *thin_object, *low_object, *high_object, *turns_object, *sharpness_object;
    double t_offset, sign, cap;
    Py_ssize_t most;
    if (!PyArg_ParseTuple(args, "OOOddOndO", &thin_object, &low_object, &high_object, &t_offset, &sign,
                          &turns_object, &most, &cap, &sharpness_object))
        return NULL;
    Array t, low, high, turns, sharpness;
    int got = 0;
    if (get_array(thin_object, &t, "f", 2, 0)) got++;
    if (got == 1 && get_array(low_object, &low, "q", 1, 0)) got++;
    if (got == 2 && get_array(high_object, &high, "q", 1, 0)) got++;
    if (got == 3 && get_array(turns_object, &turns, "d", 1, 0)) got++;
    if (got == 4 && get_array(sharpness_object, &sharpness, "d", 1, 1)) got++;
    Py_ssize_t rows = 0, width = 0, total = 0, kept = 0;
    char *near = NULL;
    Point *points = NULL;
    double *r = NULL, *c = NULL, *w = NULL, *bins = NULL;
    if (got < 5) goto done;
    rows = t.rows;
    width = t.cols;
    if (low.rows != high.rows || sharpness.rows != turns.rows) {
        PyErr_SetString(PyExc_ValueError, "low and high, or turns and sharpness, differ in length");
        goto done;
    }
    near = calloc(width, 1);
    if (!near) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t band = 0; band < low.rows; band++) {
        Py_ssize_t from = I64(low, band) < 0 ? 0 : I64(low, band), to = I64(high, band) > width ? width : I64(high, band);
        for (Py_ssize_t j = from; j < to; j++) near[j] = 1;
    }
    for (Py_ssize_t i = 0; i < rows; i++)
        for (Py_ssize_t j = 0; j < width; j++)
            if (near[j] && F32(t, i, j) > 0) total++;
    if (total < 20) goto done;
    points = malloc(sizeof(Point) * total);
    if (!points) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0, k = 0; i < rows; i++)
        for (Py_ssize_t j = 0; j < width; j++)
            if (near[j] && F32(t, i, j) > 0) {
                points[k].weight = F32(t, i, j);
                points[k].order = i * width + j;
                k++;
            }
    kept = total;
    if (total > most) {
        qsort(points, total, sizeof(Point), stronger_first);
        kept = most;
    }
    r = malloc(sizeof(double) * kept);
    c = malloc(sizeof(double) * kept);
    w = malloc(sizeof(double) * kept);
    bins = malloc(sizeof(double) * width);
    if (!r || !c || !w || !bins) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t p = 0; p < kept; p++) {
        r[p] = (double)(points[p].order / width);
        c[p] = (double)(points[p].order % width);
        w[p] = fmin((double)points[p].weight, cap);
    }
    for (Py_ssize_t step = 0; step < turns.rows; step++) {
        double tangent = F64(turns, step), sum = 0.0;
        memset(bins, 0, sizeof(double) * width);
        for (Py_ssize_t p = 0; p < kept; p++) {
            double moved = fmin(fmax(c[p] + tangent * sign * (r[p] + t_offset), 0.0), width - 1.001);
            Py_ssize_t at = (Py_ssize_t)floor(moved);
            double upper = moved - at;
            bins[at] += (1.0 - upper) * w[p];
            bins[at + 1] += upper * w[p];
        }
        for (Py_ssize_t j = 0; j < width; j++) sum += bins[j] * bins[j];
        F64(sharpness, step) += sum;
    }
done:
    free(near);
    free(points);
    free(r);
    free(c);
    free(w);
    free(bins);
    if (got >= 1) PyBuffer_Release(&t.view);
    if (got >= 2) PyBuffer_Release(&low.view);
    if (got >= 3) PyBuffer_Release(&high.view);
    if (got >= 4) PyBuffer_Release(&turns.view);
    if (got >= 5) PyBuffer_Release(&sharpness.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* side_positions(thin_rows, magnitude, low, high, rows_out, positions_out) -> n: the
 * first n entries of the outputs hold the rows with an edge in [low, high) and the
 * sub-pixel position of the strongest one. */
static PyObject *side_positions(PyObject *self, PyObject *args) {
    PyObject *thin_object, *magnitude_object, *rows_object, *positions_object;
    Py_ssize_t low, high;
    if (!PyArg_ParseTuple(args, "OOnnOO", &thin_object, &magnitude_object, &low, &high, &rows_object,
                          &positions_object))
        return NULL;
    Array t, m, rows_out, positions_out;
    int got = 0;
    if (get_array(thin_object, &t, "f", 2, 0)) got++;
    if (got == 1 && get_array(magnitude_object, &m, "f", 2, 0)) got++;
    if (got == 2 && get_array(rows_object, &rows_out, "d", 1, 1)) got++;
    if (got == 3 && get_array(positions_object, &positions_out, "d", 1, 1)) got++;
    Py_ssize_t n = 0;
    if (got == 4) {
        if (low < 1 || high > t.cols - 1 || m.rows != t.rows || m.cols != t.cols || rows_out.rows < t.rows
            || positions_out.rows < t.rows) {
            PyErr_SetString(PyExc_ValueError, "band outside the patch, or arrays of the wrong shape");
        } else {
            for (Py_ssize_t i = 0; i < t.rows; i++) {
                Py_ssize_t best_col = -1;
                float best = 0.0f;
                for (Py_ssize_t j = low; j < high; j++)
                    if (F32(t, i, j) > best) { best = F32(t, i, j); best_col = j; }
                if (best_col < 0) continue;
                float before = F32(m, i, best_col - 1), at = F32(m, i, best_col), after = F32(m, i, best_col + 1);
                float curvature = before - 2 * at + after;
                double offset = curvature < 0 ? 0.5 * (before - after) / curvature : 0.0;
                F64(rows_out, n) = (double)i;
                F64(positions_out, n) = best_col + fmin(fmax(offset, -0.5), 0.5);
                n++;
            }
        }
    }
    if (got >= 1) PyBuffer_Release(&t.view);
    if (got >= 2) PyBuffer_Release(&m.view);
    if (got >= 3) PyBuffer_Release(&rows_out.view);
    if (got >= 4) PyBuffer_Release(&positions_out.view);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromSsize_t(n);
}

static PyMethodDef methods[] = {
    {"thin", thin, METH_VARARGS, "thin(g, threshold, out, transposed)"},
    {"coverage", coverage, METH_VARARGS, "coverage(thin_rows, out)"},
    {"pair_search", pair_search, METH_VARARGS, "pair_search(cover, profile, span, reach, depth, rim, weight)"},
    {"turn_sharpness", turn_sharpness, METH_VARARGS,
     "turn_sharpness(thin_rows, low, high, t_offset, sign, turns, most_points, weight_cap, sharpness)"},
    {"side_positions", side_positions, METH_VARARGS, "side_positions(thin_rows, magnitude, low, high, rows, positions)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", "The card finder's inner loops in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
