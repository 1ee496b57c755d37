/* The card finder's and the reader's inner loops in C: see kernels.py (the finder's) and
 * read_kernels.py (the reader's), which document each function, check its arguments and
 * fall back to numpy where this module was not built.
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

/* Releases the first `got` of the buffers a function acquired, in the order it acquired
 * them (each function counts in `got` how many it holds, so an early failure releases
 * only those). */
static void release_buffers(int got, Py_buffer *const *views) {
    for (int i = 0; i < got; i++) PyBuffer_Release(views[i]);
}
#define RELEASE(got, ...) release_buffers((got), (Py_buffer *const[]){__VA_ARGS__})

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
    RELEASE(got, &t.view, &low.view, &high.view, &turns.view, &sharpness.view);
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
    RELEASE(got, &t.view, &m.view, &rows_out.view, &positions_out.view);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromSsize_t(n);
}


/* --- the reader's inner loops (read_kernels.py) ----------------------------------------- */

/* A 3-D buffer (rows × columns × channels), any strides. */
typedef struct {
    Py_buffer view;
    char *data;
    Py_ssize_t rows, cols, channels, row_step, col_step, channel_step;
} Image;

static int get_image(PyObject *object, Image *image, const char *format, int writable) {
    if (PyObject_GetBuffer(object, &image->view, PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0)) < 0) return 0;
    const char *got = image->view.format ? image->view.format : "B";
    if (got[0] == '<' || got[0] == '=' || got[0] == '@') got++;
    if (image->view.ndim != 3 || strcmp(got, format) != 0) {
        PyErr_Format(PyExc_TypeError, "expected a 3-D array of format '%s', got %d-D '%s'", format, image->view.ndim, got);
        PyBuffer_Release(&image->view);
        return 0;
    }
    image->data = image->view.buf;
    image->rows = image->view.shape[0];
    image->cols = image->view.shape[1];
    image->channels = image->view.shape[2];
    image->row_step = image->view.strides[0];
    image->col_step = image->view.strides[1];
    image->channel_step = image->view.strides[2];
    return 1;
}

#define PIXEL(a, i, j, c) (*(float *)((a).data + (i) * (a).row_step + (j) * (a).col_step + (c) * (a).channel_step))
#define U8(a, i, j) (*(unsigned char *)((a).data + (i) * (a).row_step + (j) * (a).col_step))

/* The k-th smallest of values[0..n) for k near n: the least of the n - k largest values,
 * kept in a min-heap (heap, n - k long) in one pass. Most values do not enter it, a
 * branch the processor predicts, where a quickselect's comparisons go either way. */
static float select_high(const float *values, Py_ssize_t n, Py_ssize_t k, float *heap) {
    Py_ssize_t size = n - k, count = 0; /* the heap holds the `size` largest seen */
    for (Py_ssize_t i = 0; i < n; i++) {
        float value = values[i];
        if (count == size) {
            if (value <= heap[0]) continue;
            count--; /* the root leaves: the last element sinks from the top */
            float last = heap[count];
            Py_ssize_t at = 0;
            for (;;) {
                Py_ssize_t child = 2 * at + 1;
                if (child >= count) break;
                if (child + 1 < count && heap[child + 1] < heap[child]) child++;
                if (heap[child] >= last) break;
                heap[at] = heap[child];
                at = child;
            }
            heap[at] = last;
        }
        Py_ssize_t at = count++; /* the value rises from the bottom */
        while (at > 0 && heap[(at - 1) / 2] > value) {
            heap[at] = heap[(at - 1) / 2];
            at = (at - 1) / 2;
        }
        heap[at] = value;
    }
    return heap[0];
}

/* select_float, select_double: the k-th smallest of values[0..n) (as np.partition gives
 * it), by quickselect; reorders values. */
#define DEFINE_SELECT(name, type)                                   \
    static type name(type *values, Py_ssize_t n, Py_ssize_t k) {    \
        Py_ssize_t low = 0, high = n - 1;                           \
        while (low < high) {                                        \
            type pivot = values[low + (high - low) / 2];            \
            Py_ssize_t i = low, j = high;                           \
            while (i <= j) {                                        \
                while (values[i] < pivot) i++;                      \
                while (values[j] > pivot) j--;                      \
                if (i <= j) {                                       \
                    type swap = values[i];                          \
                    values[i] = values[j];                          \
                    values[j] = swap;                               \
                    i++;                                            \
                    j--;                                            \
                }                                                   \
            }                                                       \
            if (k <= j) high = j;                                   \
            else if (k >= i) low = i;                               \
            else break;                                             \
        }                                                           \
        return values[k];                                           \
    }

DEFINE_SELECT(select_float, float)
DEFINE_SELECT(select_double, double)

/* Of n pixels (n × 3 floats, contiguous): far, the quantile's squared distance from
 * (1, 1, 1); colour, the per-channel median of the pixels at least 0.6 far (1, 1, 1
 * where none is, or far is tiny); count, the pixels at least share_of far. 0 when
 * memory runs out (the error is set). */
static int strongest_of(const float *pixels, Py_ssize_t n, double quantile, double share_of, float colour[3],
                        double *far_out, Py_ssize_t *count_out) {
    float *distance = malloc(sizeof(float) * n), *sorted = malloc(sizeof(float) * n), *chosen = malloc(sizeof(float) * n);
    Py_ssize_t *strongest_at = malloc(sizeof(Py_ssize_t) * n);
    int ok = distance && sorted && chosen && strongest_at;
    if (!ok) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        float b = pixels[3 * i] - 1.0f, g = pixels[3 * i + 1] - 1.0f, r = pixels[3 * i + 2] - 1.0f;
        float d = b * b + g * g;
        distance[i] = d + r * r;
    }
    Py_ssize_t rank = (Py_ssize_t)(quantile * (double)(n - 1)), count = 0;
    double far;
    if (8 * (n - rank) < n) {
        far = select_high(distance, n, rank, sorted);
    } else {
        memcpy(sorted, distance, sizeof(float) * n);
        far = select_float(sorted, n, rank);
    }
    float at_least = (float)(share_of * far), strong = (float)(0.6 * far);
    Py_ssize_t chosen_count = 0;
    for (Py_ssize_t i = 0; i < n; i++) { /* without a branch: the tests go either way at random */
        count += distance[i] >= at_least;
        strongest_at[chosen_count] = i;
        chosen_count += distance[i] >= strong;
    }
    for (Py_ssize_t c = 0; c < 3; c++) {
        colour[c] = 1.0f;
        if (far > 1e-6 && chosen_count > 0) {
            for (Py_ssize_t k = 0; k < chosen_count; k++) chosen[k] = pixels[3 * strongest_at[k] + c];
            colour[c] = select_float(chosen, chosen_count, chosen_count / 2);
        }
    }
    *far_out = far;
    *count_out = count;
done:
    free(distance);
    free(sorted);
    free(chosen);
    free(strongest_at);
    return ok;
}

/* strongest(pixels, quantile, share_of, colour_out) -> (far, count): pixels (n × 3,
 * float32, contiguous); see strongest_of. */
static PyObject *strongest(PyObject *self, PyObject *args) {
    PyObject *pixels_object, *colour_object;
    double quantile, share_of;
    if (!PyArg_ParseTuple(args, "OddO", &pixels_object, &quantile, &share_of, &colour_object)) return NULL;
    Array p, colour;
    if (!get_array(pixels_object, &p, "f", 2, 0)) return NULL;
    if (!get_array(colour_object, &colour, "f", 1, 1)) { PyBuffer_Release(&p.view); return NULL; }
    Py_ssize_t count = 0;
    double far = 0.0;
    float found[3];
    if (p.cols != 3 || colour.rows != 3 || p.rows < 1 || p.col_step != sizeof(float)
        || (p.rows > 1 && p.row_step != 3 * sizeof(float))) {
        PyErr_SetString(PyExc_ValueError, "expected n x 3 pixels (n > 0, contiguous) and a colour of 3");
    } else if (strongest_of((const float *)p.data, p.rows, quantile, share_of, found, &far, &count)) {
        for (int c = 0; c < 3; c++) *(float *)(colour.data + c * colour.row_step) = found[c];
    }
    PyBuffer_Release(&p.view);
    PyBuffer_Release(&colour.view);
    if (PyErr_Occurred()) return NULL;
    return Py_BuildValue("dn", far, count);
}

/* Of the image's pixels under two masks placed with their top-left at (y0, x0) (mask
 * pixels off the image are left out): how many lie in ring but not in near and their
 * per-channel median (paper, untouched where there are none), how many lie in near and
 * their sum per channel. 0 when memory runs out (the error is set). */
static int ring_and_near_of(const Image *image, const Array *near, const Array *ring, Py_ssize_t y0, Py_ssize_t x0,
                            float paper[3], double total[3], Py_ssize_t *ring_out, Py_ssize_t *near_out) {
    Py_ssize_t ring_count = 0, near_count = 0;
    Py_ssize_t first_i = y0 < 0 ? -y0 : 0, first_j = x0 < 0 ? -x0 : 0;
    Py_ssize_t end_i = near->rows < image->rows - y0 ? near->rows : image->rows - y0;
    Py_ssize_t end_j = near->cols < image->cols - x0 ? near->cols : image->cols - x0;
    Py_ssize_t most = (end_i > first_i && end_j > first_j) ? (end_i - first_i) * (end_j - first_j) : 1;
    float *values = malloc(sizeof(float) * 3 * most); /* the ring's pixels, channel by channel */
    if (!values) {
        PyErr_NoMemory();
        return 0;
    }
    total[0] = total[1] = total[2] = 0.0;
    for (Py_ssize_t i = first_i; i < end_i; i++)
        for (Py_ssize_t j = first_j; j < end_j; j++) {
            if (U8(*near, i, j)) {
                near_count++;
                for (int c = 0; c < 3; c++) total[c] += (double)PIXEL(*image, y0 + i, x0 + j, c);
            } else if (U8(*ring, i, j)) {
                for (int c = 0; c < 3; c++) values[c * most + ring_count] = PIXEL(*image, y0 + i, x0 + j, c);
                ring_count++;
            }
        }
    for (int c = 0; c < 3 && ring_count > 0; c++)
        paper[c] = select_float(values + c * most, ring_count, ring_count / 2);
    free(values);
    *ring_out = ring_count;
    *near_out = near_count;
    return 1;
}

/* ring_and_near(normalised, near, ring, paper_out, near_sum_out) -> (ring count, near
 * count): normalised (rows × columns × 3, float32), near and ring (uint8 masks of its
 * size, ring counted only outside near); paper_out the per-channel median of the ring's
 * pixels (float32, untouched where the ring is empty), near_sum_out the near pixels' sum
 * per channel (float64). */
static PyObject *ring_and_near(PyObject *self, PyObject *args) {
    PyObject *image_object, *near_object, *ring_object, *paper_object, *sum_object;
    if (!PyArg_ParseTuple(args, "OOOOO", &image_object, &near_object, &ring_object, &paper_object, &sum_object))
        return NULL;
    Image image;
    Array near, ring, paper, sum;
    int got = 0;
    if (get_image(image_object, &image, "f", 0)) got++;
    if (got == 1 && get_array(near_object, &near, "B", 2, 0)) got++;
    if (got == 2 && get_array(ring_object, &ring, "B", 2, 0)) got++;
    if (got == 3 && get_array(paper_object, &paper, "f", 1, 1)) got++;
    if (got == 4 && get_array(sum_object, &sum, "d", 1, 1)) got++;
    Py_ssize_t ring_count = 0, near_count = 0;
    if (got < 5) goto done;
    if (image.channels != 3 || near.rows != image.rows || near.cols != image.cols || ring.rows != image.rows
        || ring.cols != image.cols || paper.rows != 3 || sum.rows != 3) {
        PyErr_SetString(PyExc_ValueError, "masks, image or outputs of the wrong shape");
        goto done;
    }
    float median[3];
    double total[3];
    for (int c = 0; c < 3; c++) median[c] = *(float *)(paper.data + c * paper.row_step);
    if (!ring_and_near_of(&image, &near, &ring, 0, 0, median, total, &ring_count, &near_count)) goto done;
    for (int c = 0; c < 3; c++) {
        F64(sum, c) = total[c];
        *(float *)(paper.data + c * paper.row_step) = median[c];
    }
done:
    RELEASE(got, &image.view, &near.view, &ring.view, &paper.view, &sum.view);
    if (PyErr_Occurred()) return NULL;
    return Py_BuildValue("nn", ring_count, near_count);
}

/* stroke_ink(normalised, rows, cols, top, left, near, ring, y0, x0, take, darkest_channels,
 * out) -> taken: the colour of a numeral's strokes (read_kernels.stroke_ink says how),
 * the stroke pixels (rows, cols: int64, offset by top, left) wholly on the image, the
 * masks' top-left at (y0, x0); darkest_channels a bit per channel (1: B, 2: G, 4: R).
 * taken: whether what the strokes take from the paper was used. */
static PyObject *stroke_ink(PyObject *self, PyObject *args) {
    PyObject *image_object, *rows_object, *cols_object, *near_object, *ring_object, *out_object;
    Py_ssize_t top, left, y0, x0;
    int take, darkest_channels;
    if (!PyArg_ParseTuple(args, "OOOnnOOnnpiO", &image_object, &rows_object, &cols_object, &top, &left,
                          &near_object, &ring_object, &y0, &x0, &take, &darkest_channels, &out_object))
        return NULL;
    Image image;
    Array rows, cols, near, ring, out;
    int got = 0, taken = 0;
    float *pixels = NULL;
    if (get_image(image_object, &image, "f", 0)) got++;
    if (got == 1 && get_array(rows_object, &rows, "q", 1, 0)) got++;
    if (got == 2 && get_array(cols_object, &cols, "q", 1, 0)) got++;
    if (got == 3 && get_array(near_object, &near, "B", 2, 0)) got++;
    if (got == 4 && get_array(ring_object, &ring, "B", 2, 0)) got++;
    if (got == 5 && get_array(out_object, &out, "f", 1, 1)) got++;
    if (got < 6) goto done;
    Py_ssize_t n = rows.rows;
    if (image.channels != 3 || cols.rows != n || n < 1 || out.rows != 3 || ring.rows != near.rows
        || ring.cols != near.cols) {
        PyErr_SetString(PyExc_ValueError, "strokes, masks, image or output of the wrong shape");
        goto done;
    }
    double colour[3];
    if (take) {
        float paper[3] = {1.0f, 1.0f, 1.0f};
        double total[3];
        Py_ssize_t ring_count, near_count;
        if (!ring_and_near_of(&image, &near, &ring, y0, x0, paper, total, &ring_count, &near_count)) goto done;
        taken = ring_count >= n;
        for (int c = 0; c < 3 && taken; c++) { /* as _taken in ink.py: float64 from the float32 median */
            double level = (double)paper[c] > 1e-3 ? (double)paper[c] : 1e-3;
            double took = (level * (double)near_count - total[c]) / level;
            colour[c] = (double)(float)(1.0 - took / (double)n);
        }
    }
    if (!taken || darkest_channels) {
        pixels = malloc(sizeof(float) * 3 * n);
        if (!pixels) { PyErr_NoMemory(); goto done; }
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t i = (Py_ssize_t)I64(rows, k) + top, j = (Py_ssize_t)I64(cols, k) + left;
            if (i < 0 || j < 0 || i >= image.rows || j >= image.cols) {
                PyErr_SetString(PyExc_ValueError, "a stroke pixel lies off the image");
                goto done;
            }
            for (int c = 0; c < 3; c++) pixels[3 * k + c] = PIXEL(image, i, j, c);
        }
        float darkest[3];
        double far;
        Py_ssize_t count;
        if (!strongest_of(pixels, n, 0.9, 0.0, darkest, &far, &count)) goto done;
        for (int c = 0; c < 3; c++)
            if (!taken || (darkest_channels >> c) & 1) colour[c] = darkest[c];
    }
    for (int c = 0; c < 3; c++) *(float *)(out.data + c * out.row_step) = (float)colour[c];
done:
    free(pixels);
    RELEASE(got, &image.view, &rows.view, &cols.view, &near.view, &ring.view, &out.view);
    if (PyErr_Occurred()) return NULL;
    return PyBool_FromLong(taken);
}

/* weakest_edge(across, shears, blocks, left, right) -> strength: across (rows × columns,
 * float32) cut into `blocks` blocks of rows, each block's column means (float32, as
 * numpy's mean takes them) shifted back by each shear times the block's offset from the
 * middle (linear interpolation); per shear the weakest block per column; the largest of
 * those in columns [left, right) above its shear's median over all columns. */
static PyObject *weakest_edge(PyObject *self, PyObject *args) {
    PyObject *across_object, *shears_object;
    Py_ssize_t blocks, left, right;
    if (!PyArg_ParseTuple(args, "OOnnn", &across_object, &shears_object, &blocks, &left, &right)) return NULL;
    Array a, shears;
    if (!get_array(across_object, &a, "f", 2, 0)) return NULL;
    if (!get_array(shears_object, &shears, "d", 1, 0)) { PyBuffer_Release(&a.view); return NULL; }
    Py_ssize_t height = a.rows, width = a.cols, block = blocks > 0 ? height / blocks : 0;
    float *means = NULL;
    double *weakest = NULL, *sorted = NULL, strength = -INFINITY;
    if (blocks < 1 || block < 1 || width < 2 || left < 0 || right > width || left >= right) {
        PyErr_SetString(PyExc_ValueError, "too few rows or columns, or an empty band");
        goto done;
    }
    means = malloc(sizeof(float) * blocks * width);
    weakest = malloc(sizeof(double) * width);
    sorted = malloc(sizeof(double) * width);
    if (!means || !weakest || !sorted) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t b = 0; b < blocks; b++)
        for (Py_ssize_t j = 0; j < width; j++) {
            float total = F32(a, b * block, j);
            for (Py_ssize_t i = 1; i < block; i++) total += F32(a, b * block + i, j);
            means[b * width + j] = total / (float)block;
        }
    for (Py_ssize_t s = 0; s < shears.rows; s++) {
        double shear = F64(shears, s);
        for (Py_ssize_t j = 0; j < width; j++) {
            double least = INFINITY;
            for (Py_ssize_t b = 0; b < blocks; b++) {
                double centre = (b + 0.5) * block - height / 2.0;
                double source = (double)j - shear * centre;
                source = source < 0.0 ? 0.0 : source > width - 1 ? (double)(width - 1) : source;
                Py_ssize_t column = (Py_ssize_t)source;
                if (column > width - 2) column = width - 2;
                double frac = source - column;
                double value = (double)means[b * width + column] * (1 - frac) + (double)means[b * width + column + 1] * frac;
                if (value < least) least = value;
            }
            weakest[j] = sorted[j] = least;
        }
        double median;
        if (width % 2) {
            median = select_double(sorted, width, width / 2);
        } else {
            double upper = select_double(sorted, width, width / 2), lower = -INFINITY;
            for (Py_ssize_t j = 0; j < width / 2; j++) lower = sorted[j] > lower ? sorted[j] : lower;
            median = (lower + upper) / 2;
        }
        for (Py_ssize_t j = left; j < right; j++) if (weakest[j] - median > strength) strength = weakest[j] - median;
    }
done:
    free(means);
    free(weakest);
    free(sorted);
    PyBuffer_Release(&a.view);
    PyBuffer_Release(&shears.view);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(strength);
}

/* quantiles_u8(grey, low, high) -> (low-th, high-th smallest value) of a uint8 image. */
static PyObject *quantiles_u8(PyObject *self, PyObject *args) {
    PyObject *grey_object;
    Py_ssize_t low, high;
    if (!PyArg_ParseTuple(args, "Onn", &grey_object, &low, &high)) return NULL;
    Array g;
    if (!get_array(grey_object, &g, "B", 2, 0)) return NULL;
    Py_ssize_t histogram[256] = {0};
    for (Py_ssize_t i = 0; i < g.rows; i++)
        for (Py_ssize_t j = 0; j < g.cols; j++) histogram[U8(g, i, j)]++;
    int found[2] = {-1, -1};
    Py_ssize_t wanted[2] = {low, high}, seen = 0;
    for (int value = 0; value < 256; value++) {
        seen += histogram[value];
        for (int q = 0; q < 2; q++)
            if (found[q] < 0 && seen > wanted[q]) found[q] = value;
    }
    PyBuffer_Release(&g.view);
    if (low < 0 || high < 0 || found[0] < 0 || found[1] < 0) {
        PyErr_SetString(PyExc_ValueError, "rank outside the image");
        return NULL;
    }
    return Py_BuildValue("ii", found[0], found[1]);
}

/* The median of values[0..n) as arrays.median takes it of float32 (the two middle values
 * averaged in float32); reorders values. */
static float median_float(float *values, Py_ssize_t n) {
    float upper = select_float(values, n, n / 2);
    if (n % 2) return upper;
    float lower = values[0];
    for (Py_ssize_t j = 1; j < n / 2; j++) lower = values[j] > lower ? values[j] : lower;
    return (lower + upper) / 2.0f;
}

/* index_pair(glyphs, blank, rows, rank, left, right, reach) -> strength: glyphs (float32)
 * and blank (uint8, 0 or 1) of a face; per column in [left, right) the rank-th smallest
 * of glyphs * blank over `rows`, and over the same rows counted from the bottom; each
 * such profile less its median and widened by a maximum over `reach` columns either
 * way; the largest of the two profiles' smaller value. */
static PyObject *index_pair(PyObject *self, PyObject *args) {
    PyObject *glyphs_object, *blank_object, *rows_object;
    Py_ssize_t rank, left, right, reach;
    if (!PyArg_ParseTuple(args, "OOOnnnn", &glyphs_object, &blank_object, &rows_object, &rank, &left, &right, &reach))
        return NULL;
    Array g, blank, rows;
    int got = 0;
    if (get_array(glyphs_object, &g, "f", 2, 0)) got++;
    if (got == 1 && get_array(blank_object, &blank, "B", 2, 0)) got++;
    if (got == 2 && get_array(rows_object, &rows, "q", 1, 0)) got++;
    Py_ssize_t columns = right - left, n = got == 3 ? rows.rows : 0;
    float *values = NULL, *profiles = NULL, *sorted = NULL;
    double strength = -INFINITY;
    if (got < 3) goto done;
    if (blank.rows != g.rows || blank.cols != g.cols || left < 0 || right > g.cols || columns < 1 || n < 1
        || rank < 0 || rank >= n || reach < 0) {
        PyErr_SetString(PyExc_ValueError, "blank, rows or columns do not fit the glyph map");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        if (I64(rows, k) < 0 || I64(rows, k) >= g.rows) {
            PyErr_SetString(PyExc_ValueError, "blank, rows or columns do not fit the glyph map");
            goto done;
        }
    values = malloc(sizeof(float) * n);
    profiles = malloc(sizeof(float) * 2 * columns);
    sorted = malloc(sizeof(float) * columns);
    if (!values || !profiles || !sorted) { PyErr_NoMemory(); goto done; }
    for (int band = 0; band < 2; band++) {
        float *profile = profiles + band * columns;
        for (Py_ssize_t j = 0; j < columns; j++) {
            for (Py_ssize_t k = 0; k < n; k++) {
                Py_ssize_t row = band ? g.rows - 1 - I64(rows, k) : I64(rows, k);
                values[k] = F32(g, row, left + j) * (float)U8(blank, row, left + j);
            }
            profile[j] = sorted[j] = select_float(values, n, rank);
        }
        float middle = median_float(sorted, columns);
        for (Py_ssize_t j = 0; j < columns; j++) profile[j] -= middle;
    }
    for (Py_ssize_t j = 0; j < columns; j++) {
        float widest[2];
        for (int band = 0; band < 2; band++) {
            float *profile = profiles + band * columns;
            widest[band] = profile[j];
            for (Py_ssize_t k = j - reach; k <= j + reach; k++)
                if (k >= 0 && k < columns && profile[k] > widest[band]) widest[band] = profile[k];
        }
        double weaker = widest[0] < widest[1] ? widest[0] : widest[1];
        if (weaker > strength) strength = weaker;
    }
done:
    free(values);
    free(profiles);
    free(sorted);
    RELEASE(got, &g.view, &blank.view, &rows.view);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(strength);
}

/* normalise(card, field, typical, out): out = (card - field + divisor) / divisor, divisor
 * = min(field, typical) per channel, in float32 as OpenCV's element-wise operations take
 * it; card uint8, field and out float32, all rows × columns × 3. */
static PyObject *normalise(PyObject *self, PyObject *args) {
    PyObject *card_object, *field_object, *typical_object, *out_object;
    if (!PyArg_ParseTuple(args, "OOOO", &card_object, &field_object, &typical_object, &out_object)) return NULL;
    Image card, field, out;
    Array typical;
    int got = 0;
    if (get_image(card_object, &card, "B", 0)) got++;
    if (got == 1 && get_image(field_object, &field, "f", 0)) got++;
    if (got == 2 && get_array(typical_object, &typical, "f", 1, 0)) got++;
    if (got == 3 && get_image(out_object, &out, "f", 1)) got++;
    if (got < 4) goto done;
    if (card.channels != 3 || field.rows != card.rows || field.cols != card.cols || field.channels != 3
        || out.rows != card.rows || out.cols != card.cols || out.channels != 3 || typical.rows != 3) {
        PyErr_SetString(PyExc_ValueError, "card, field, typical or out of the wrong shape");
        goto done;
    }
    float level[3];
    for (int c = 0; c < 3; c++) level[c] = *(float *)(typical.data + c * typical.row_step);
    for (Py_ssize_t i = 0; i < card.rows; i++)
        for (Py_ssize_t j = 0; j < card.cols; j++)
            for (int c = 0; c < 3; c++) {
                float f = PIXEL(field, i, j, c);
                float divisor = f < level[c] ? f : level[c];
                float value = (float)(*(unsigned char *)(card.data + i * card.row_step + j * card.col_step
                                                         + c * card.channel_step)) - f;
                value = value + divisor;
                PIXEL(out, i, j, c) = value / divisor;
            }
done:
    RELEASE(got, &card.view, &field.view, &typical.view, &out.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* channel_ranks(pixels, rank, out): per channel of pixels (n × channels, float32) the
 * rank-th smallest value (as np.partition gives it along the first axis). */
static PyObject *channel_ranks(PyObject *self, PyObject *args) {
    PyObject *pixels_object, *out_object;
    Py_ssize_t rank;
    if (!PyArg_ParseTuple(args, "OnO", &pixels_object, &rank, &out_object)) return NULL;
    Array p, out;
    if (!get_array(pixels_object, &p, "f", 2, 0)) return NULL;
    if (!get_array(out_object, &out, "f", 1, 1)) { PyBuffer_Release(&p.view); return NULL; }
    float *values = NULL;
    if (out.rows != p.cols || rank < 0 || rank >= p.rows) {
        PyErr_SetString(PyExc_ValueError, "rank outside the pixels, or out of the wrong length");
    } else if (!(values = malloc(sizeof(float) * p.rows))) {
        PyErr_NoMemory();
    } else {
        for (Py_ssize_t c = 0; c < p.cols; c++) {
            for (Py_ssize_t i = 0; i < p.rows; i++) values[i] = F32(p, i, c);
            *(float *)(out.data + c * out.row_step) = select_float(values, p.rows, rank);
        }
    }
    free(values);
    PyBuffer_Release(&p.view);
    PyBuffer_Release(&out.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* ink_distances2(points, ink_polar, var_hue, var_sat, cross, determinant, out): out[ink,
 * point] the squared Mahalanobis distance of each chromaticity (x, y) from each ink's
 * (hue, log saturation), with the inks' spreads given, as ink.py's numpy takes it. */
static PyObject *ink_distances2(PyObject *self, PyObject *args) {
    PyObject *points_object, *polar_object, *hue_object, *sat_object, *det_object, *out_object;
    double cross;
    if (!PyArg_ParseTuple(args, "OOOOdOO", &points_object, &polar_object, &hue_object, &sat_object, &cross,
                          &det_object, &out_object))
        return NULL;
    Array points, polar, var_hue, var_sat, det, out;
    int got = 0;
    if (get_array(points_object, &points, "d", 2, 0)) got++;
    if (got == 1 && get_array(polar_object, &polar, "d", 2, 0)) got++;
    if (got == 2 && get_array(hue_object, &var_hue, "d", 1, 0)) got++;
    if (got == 3 && get_array(sat_object, &var_sat, "d", 1, 0)) got++;
    if (got == 4 && get_array(det_object, &det, "d", 1, 0)) got++;
    if (got == 5 && get_array(out_object, &out, "d", 2, 1)) got++;
    if (got < 6) goto done;
    Py_ssize_t inks = polar.rows, n = points.rows;
    if (points.cols != 2 || polar.cols != 2 || var_hue.rows != inks || var_sat.rows != inks || det.rows != inks
        || out.rows != inks || out.cols != n) {
        PyErr_SetString(PyExc_ValueError, "points, inks or out of the wrong shape");
        goto done;
    }
    const double pi = 3.141592653589793, turn = 2 * 3.141592653589793;
    for (Py_ssize_t p = 0; p < n; p++) {
        double x = *(double *)(points.data + p * points.row_step), y = *(double *)(points.data + p * points.row_step
                                                                                   + points.col_step);
        double hue = atan2(y, x), length = hypot(x, y);
        double log_saturation = log(length > 1e-3 ? length : 1e-3);
        for (Py_ssize_t i = 0; i < inks; i++) {
            double ink_hue = *(double *)(polar.data + i * polar.row_step);
            double ink_log_saturation = *(double *)(polar.data + i * polar.row_step + polar.col_step);
            double d_hue = fmod(hue - ink_hue + pi, turn); /* floor modulo, as numpy's % */
            if (d_hue < 0) d_hue += turn;
            else if (d_hue == 0) d_hue = 0.0;
            d_hue -= pi;
            double d_sat = log_saturation - ink_log_saturation;
            double d2 = F64(var_sat, i) * (d_hue * d_hue) - 2 * cross * d_hue * d_sat + F64(var_hue, i) * (d_sat * d_sat);
            *(double *)(out.data + i * out.row_step + p * out.col_step) = d2 / F64(det, i);
        }
    }
done:
    RELEASE(got, &points.view, &polar.view, &var_hue.view, &var_sat.view, &det.view, &out.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* window_rows(region, h, w, step, windows, norms): every h × w window of region (float32,
 * top-left corners every step pixels, rows first) as a row of windows (float32, windows ×
 * h*w), and each window's spread, sqrt(max(sum of squares - sum^2 / (h*w), 1e-9)), into
 * norms (float32). The sums come from running sums along each row of the region (in
 * double): a pass over the region, not over every window. */
static PyObject *window_rows(PyObject *self, PyObject *args) {
    PyObject *region_object, *windows_object, *norms_object;
    Py_ssize_t h, w, step;
    if (!PyArg_ParseTuple(args, "OnnnOO", &region_object, &h, &w, &step, &windows_object, &norms_object)) return NULL;
    Array region, windows, norms;
    double *running = NULL;
    int got = 0;
    if (get_array(region_object, &region, "f", 2, 0)) got++;
    if (got == 1 && get_array(windows_object, &windows, "f", 2, 1)) got++;
    if (got == 2 && get_array(norms_object, &norms, "f", 1, 1)) got++;
    if (got < 3) goto done;
    Py_ssize_t down = h > 0 && step > 0 && region.rows >= h ? (region.rows - h) / step + 1 : 0;
    Py_ssize_t across = w > 0 && step > 0 && region.cols >= w ? (region.cols - w) / step + 1 : 0;
    if (!down || !across || windows.rows != down * across || windows.cols != h * w || norms.rows != windows.rows
        || windows.col_step != sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "windows or norms of the wrong shape for this region, window and step");
        goto done;
    }
    Py_ssize_t stride = region.cols + 1; /* running sums of each row: values, then squares */
    if (!(running = malloc(sizeof(double) * 2 * region.rows * stride))) { PyErr_NoMemory(); goto done; }
    double *sums = running, *squares = running + region.rows * stride;
    for (Py_ssize_t i = 0; i < region.rows; i++) {
        double sum = 0.0, square = 0.0;
        sums[i * stride] = squares[i * stride] = 0.0;
        for (Py_ssize_t j = 0; j < region.cols; j++) {
            double value = F32(region, i, j);
            sum += value;
            square += value * value;
            sums[i * stride + j + 1] = sum;
            squares[i * stride + j + 1] = square;
        }
    }
    double n = (double)(h * w);
    for (Py_ssize_t a = 0; a < down; a++)
        for (Py_ssize_t b = 0; b < across; b++) {
            Py_ssize_t k = a * across + b, left = b * step;
            float *row = (float *)(windows.data + k * windows.row_step);
            double sum = 0.0, square = 0.0;
            for (Py_ssize_t i = a * step; i < a * step + h; i++, row += w) {
                sum += sums[i * stride + left + w] - sums[i * stride + left];
                square += squares[i * stride + left + w] - squares[i * stride + left];
                if (region.col_step == sizeof(float))
                    memcpy(row, region.data + i * region.row_step + left * sizeof(float), w * sizeof(float));
                else
                    for (Py_ssize_t j = 0; j < w; j++) row[j] = F32(region, i, left + j);
            }
            double spread = square - sum * sum / n;
            *(float *)(norms.data + k * norms.row_step) = (float)sqrt(spread > 1e-9 ? spread : 1e-9);
        }
done:
    free(running);
    RELEASE(got, &region.view, &windows.view, &norms.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* projected(image, weights, top, left, out): out[i, j] = sum over c of (image[top + i, left + j, c]
 * - 1) * weights[c] (float32; out's shape is the crop's): each pixel of a normalised card
 * projected onto the background-to-numeral colour direction. */
static PyObject *projected(PyObject *self, PyObject *args) {
    PyObject *image_object, *weights_object, *out_object;
    Py_ssize_t top, left;
    if (!PyArg_ParseTuple(args, "OOnnO", &image_object, &weights_object, &top, &left, &out_object)) return NULL;
    Image image;
    Array weights, out;
    int got = 0;
    if (get_image(image_object, &image, "f", 0)) got++;
    if (got == 1 && get_array(weights_object, &weights, "f", 1, 0)) got++;
    if (got == 2 && get_array(out_object, &out, "f", 2, 1)) got++;
    if (got < 3) goto done;
    if (image.channels != 3 || weights.rows != 3 || top < 0 || left < 0 || top + out.rows > image.rows
        || left + out.cols > image.cols) {
        PyErr_SetString(PyExc_ValueError, "the crop does not lie on the image, or weights of the wrong length");
        goto done;
    }
    float w0 = *(float *)weights.data, w1 = *(float *)(weights.data + weights.row_step),
          w2 = *(float *)(weights.data + 2 * weights.row_step);
    for (Py_ssize_t i = 0; i < out.rows; i++)
        for (Py_ssize_t j = 0; j < out.cols; j++) {
            float b = PIXEL(image, top + i, left + j, 0) - 1.0f, g = PIXEL(image, top + i, left + j, 1) - 1.0f,
                  r = PIXEL(image, top + i, left + j, 2) - 1.0f;
            F32(out, i, j) = b * w0 + g * w1 + r * w2;
        }
done:
    RELEASE(got, &image.view, &weights.view, &out.view);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"thin", thin, METH_VARARGS, "thin(g, threshold, out, transposed)"},
    {"coverage", coverage, METH_VARARGS, "coverage(thin_rows, out)"},
    {"pair_search", pair_search, METH_VARARGS, "pair_search(cover, profile, span, reach, depth, rim, weight)"},
    {"turn_sharpness", turn_sharpness, METH_VARARGS,
     "turn_sharpness(thin_rows, low, high, t_offset, sign, turns, most_points, weight_cap, sharpness)"},
    {"side_positions", side_positions, METH_VARARGS, "side_positions(thin_rows, magnitude, low, high, rows, positions)"},
    {"strongest", strongest, METH_VARARGS, "strongest(pixels, quantile, share_of, colour_out) -> (far, count)"},
    {"ring_and_near", ring_and_near, METH_VARARGS,
     "ring_and_near(normalised, near, ring, paper_out, near_sum_out) -> (ring count, near count)"},
    {"stroke_ink", stroke_ink, METH_VARARGS,
     "stroke_ink(normalised, rows, cols, top, left, near, ring, y0, x0, take, darkest_channels, out) -> taken"},
    {"weakest_edge", weakest_edge, METH_VARARGS, "weakest_edge(across, shears, blocks, left, right) -> strength"},
    {"quantiles_u8", quantiles_u8, METH_VARARGS, "quantiles_u8(grey, low, high) -> (low-th, high-th)"},
    {"index_pair", index_pair, METH_VARARGS, "index_pair(glyphs, blank, rows, rank, left, right, reach) -> strength"},
    {"normalise", normalise, METH_VARARGS, "normalise(card, field, typical, out)"},
    {"window_rows", window_rows, METH_VARARGS, "window_rows(region, h, w, step, windows, norms)"},
    {"projected", projected, METH_VARARGS, "projected(image, weights, top, left, out)"},
    {"channel_ranks", channel_ranks, METH_VARARGS, "channel_ranks(pixels, rank, out)"},
    {"ink_distances2", ink_distances2, METH_VARARGS,
     "ink_distances2(points, ink_polar, var_hue, var_sat, cross, determinant, out)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", "The card finder's and the reader's inner loops in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
