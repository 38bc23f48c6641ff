/*
 * The compiled search core of the Connect Four solver (connect_four_solver.py).
 *
 * It does one thing: the null-window / narrow-window negamax of the pure-Python
 * search, with the same bitboards, the same pruning and the same move order,
 * so it proves the same scores ~50x faster. Everything around it (reading
 * moves, the sequence of windows, the bot, the book) stays in Python, and the
 * pure-Python search is the fallback when this module did not build.
 *
 * Board layout, as in the Python module: each column takes rows + 1 bits, the
 * top one a sentinel that is never set, so a line shifted past the top of a
 * column lands on an empty bit; the whole board must fit in 64 bits.
 *
 * Scores: 0 a draw; positive, the player to move wins, (cells + 1 - n) / 2
 * where n is the number of discs on the board when the winning disc drops;
 * negative, the same for the opponent.
 *
 * The transposition table keeps, per position, a lower and an upper bound in
 * one 64-bit word, with the column that last proved a bound (tried first the
 * next time: the sequence of null-window searches of one solve visits the
 * same positions again and again). The key (current + mask) is multiplied by
 * an odd constant, a one-to-one map of 64-bit words: the product's top bits
 * pick the slot, its other bits (plus one, so that 0 means empty) are stored
 * above the column and the bounds. Slot and stored bits together are the
 * whole key: a hit is never a different position, and no division is needed.
 *
 * Entry: check (44 bits at most) << 20 | column + 1 (4 bits) << 16 |
 * lower bound (8 bits) << 8 | upper bound (8 bits).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef uint64_t bitboard;

#define MAX_COLUMNS 15
#define NO_LOWER (-128)
#define NO_UPPER 127
/* Clock and node budget are looked at once per this many nodes (a power of 2). */
#define CHECK_EVERY 0x3FFF

typedef struct {
    PyObject_HEAD
    int columns, rows, connect, cells, stride;
    bitboard bottom, board;
    bitboard column_masks[MAX_COLUMNS];
    int order[MAX_COLUMNS];
    uint64_t *table;
    int table_bits;
    unsigned long long nodes;
    unsigned long long max_nodes; /* 0: none */
    double deadline;              /* thread CPU seconds; < 0: none */
    int aborted;
    int busy;
} SolverObject;

static inline bitboard shift_up(bitboard x, int n) { return n < 64 ? x << n : 0; }
static inline bitboard shift_down(bitboard x, int n) { return n < 64 ? x >> n : 0; }

/* Empty cells that would complete a line of four of `stones`. */
static inline bitboard threats_of_four(bitboard s, bitboard mask, int stride, bitboard board)
{
    bitboard found = (s << 1) & (s << 2) & (s << 3);
    const int steps[3] = {stride, stride - 1, stride + 1};
    for (int i = 0; i < 3; i++) {
        const int step = steps[i];
        bitboard behind = s << step, ahead = s >> step;
        bitboard two_behind = behind & (s << 2 * step);
        bitboard two_ahead = ahead & (s >> 2 * step);
        found |= two_behind & ((s << 3 * step) | ahead);
        found |= two_ahead & ((s >> 3 * step) | behind);
    }
    return found & (board ^ mask);
}

/* The same for any line length: a cell is a threat when, for some place it
 * can take in a line, every other cell of that line holds a disc. */
static bitboard threats_any_length(const SolverObject *g, bitboard s, bitboard mask)
{
    const int length = g->connect;
    const int steps[4] = {1, g->stride, g->stride - 1, g->stride + 1};
    bitboard found = 0;
    for (int d = 0; d < 4; d++) {
        const int step = steps[d];
        for (int first = 1 - length; first <= 0; first++) {
            bitboard line = ~(bitboard)0;
            for (int k = first; k < first + length; k++) {
                if (k > 0)
                    line &= shift_down(s, k * step);
                else if (k < 0)
                    line &= shift_up(s, -k * step);
            }
            found |= line;
        }
    }
    return found & (g->board ^ mask);
}

static inline bitboard threats(const SolverObject *g, bitboard s, bitboard mask)
{
    if (g->connect == 4)
        return threats_of_four(s, mask, g->stride, g->board);
    return threats_any_length(g, s, mask);
}

static double thread_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void over_budget(SolverObject *g)
{
    if (g->max_nodes && g->nodes >= g->max_nodes)
        g->aborted = 1;
    else if (g->deadline >= 0 && thread_seconds() >= g->deadline)
        g->aborted = 1;
}

/* Any odd number makes the product one-to-one; this one (from the golden
 * ratio) spreads nearby keys over distant slots. */
#define SPREAD UINT64_C(0x9E3779B97F4A7C15)

static inline uint64_t slot_of(const SolverObject *g, bitboard key)
{
    return (key * SPREAD) >> (64 - g->table_bits);
}

static inline uint64_t check_of(const SolverObject *g, bitboard key)
{
    return ((key * SPREAD) & ((UINT64_C(1) << (64 - g->table_bits)) - 1)) + 1;
}

/* `column`: 0-based, or -1 for none (the old one is kept then). */
static inline void store(SolverObject *g, bitboard key, int lower, int upper, int column)
{
    const uint64_t index = slot_of(g, key);
    const uint64_t check = check_of(g, key);
    const uint64_t old = g->table[index];
    uint64_t hint = (uint64_t)(column + 1);
    if (old >> 20 == check) {
        /* Same position: keep the bound not being replaced, and the tighter
         * of the two for the one that is. */
        const int old_lower = (int8_t)(old >> 8), old_upper = (int8_t)old;
        if (old_lower > lower)
            lower = old_lower;
        if (old_upper < upper)
            upper = old_upper;
        if (column < 0)
            hint = old >> 16 & 0xF;
    }
    g->table[index] = check << 20 | hint << 16 | (uint64_t)(uint8_t)(int8_t)lower << 8 |
                      (uint8_t)(int8_t)upper;
}

/*
 * The score if it lies within (alpha, beta), else a bound beyond the window
 * that the position really has. `danger`: the opponent's winning squares.
 * Precondition: the player to move cannot win with this disc.
 */
static int negamax(SolverObject *g, bitboard current, bitboard mask, int moves, int alpha,
                   int beta, bitboard danger)
{
    const int cells = g->cells;
    if (!(++g->nodes & CHECK_EVERY)) {
        over_budget(g);
        if (g->aborted)
            return 0;
    }
    bitboard playable = (mask + g->bottom) & g->board;
    const bitboard forced = playable & danger;
    if (forced) {
        if (forced & (forced - 1))
            return -((cells - moves) / 2); /* two squares to block at once */
        playable = forced;
    }
    /* Never fill the square right below an opponent's winning square. */
    const bitboard safe = playable & ~(danger >> 1);
    if (!safe)
        return -((cells - moves) / 2);
    if (moves >= cells - 2)
        return 0; /* both last discs are safe and neither wins */
    /* The opponent cannot win with its next disc, and we cannot win with this one. */
    const int floor = -((cells - 2 - moves) / 2);
    if (alpha < floor) {
        alpha = floor;
        if (alpha >= beta)
            return alpha;
    }
    const int ceiling = (cells - 1 - moves) / 2;
    if (beta > ceiling) {
        beta = ceiling;
        if (alpha >= beta)
            return beta;
    }
    const bitboard key = current + mask;
    const uint64_t entry = g->table[slot_of(g, key)];
    bitboard hinted = 0;
    if (entry >> 20 == check_of(g, key)) {
        const int hint = (int)(entry >> 16 & 0xF);
        if (hint)
            hinted = g->column_masks[hint - 1];
        const int lower = (int8_t)(entry >> 8), upper = (int8_t)entry;
        if (upper < beta) {
            beta = upper;
            if (alpha >= beta)
                return beta;
        }
        if (lower > alpha) {
            alpha = lower;
            if (alpha >= beta)
                return alpha;
        }
    }

    /* The column that proved a bound here before first; then most winning
     * squares for the mover after the disc; among equals, the more central
     * column (the order the columns are visited in). */
    bitboard children[MAX_COLUMNS], child_threats[MAX_COLUMNS];
    int gains[MAX_COLUMNS], columns_of[MAX_COLUMNS];
    int count = 0;
    for (int i = 0; i < g->columns; i++) {
        const bitboard move = safe & g->column_masks[g->order[i]];
        if (!move)
            continue;
        const bitboard made = threats(g, current | move, mask | move);
        const int gain = move & hinted ? 1000 : __builtin_popcountll(made);
        int at = count++;
        for (; at > 0 && gains[at - 1] < gain; at--) {
            children[at] = children[at - 1];
            child_threats[at] = child_threats[at - 1];
            gains[at] = gains[at - 1];
            columns_of[at] = columns_of[at - 1];
        }
        children[at] = move;
        child_threats[at] = made;
        gains[at] = gain;
        columns_of[at] = g->order[i];
    }
    const bitboard opponent = current ^ mask;
    int best = -1;
    for (int i = 0; i < count; i++) {
        const int score = -negamax(g, opponent, mask | children[i], moves + 1, -beta, -alpha,
                                   child_threats[i]);
        if (g->aborted)
            return 0; /* nothing proved below: store nothing */
        if (score >= beta) {
            store(g, key, score, NO_UPPER, columns_of[i]);
            return score;
        }
        if (score > alpha) {
            alpha = score;
            best = columns_of[i];
        }
    }
    store(g, key, NO_LOWER, alpha, best);
    return alpha;
}

/* --- the Python type ---------------------------------------------------------------- */

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"columns", "rows", "connect", "table_bits", NULL};
    int columns = 7, rows = 6, connect = 4, table_bits = 23;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iiii", keywords, &columns, &rows, &connect,
                                     &table_bits))
        return -1;
    if (columns < 1 || columns > MAX_COLUMNS || rows < 1 || connect < 2 ||
        columns * (rows + 1) > 64) {
        PyErr_SetString(PyExc_ValueError, "the board does not fit in 64 bits");
        return -1;
    }
    /* At least 21 bits: the 64 - table_bits stored bits (plus one) must fit in 44. */
    if (table_bits < 21 || table_bits > 30) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be within 21..30");
        return -1;
    }
    self->columns = columns;
    self->rows = rows;
    self->connect = connect;
    self->cells = columns * rows;
    self->stride = rows + 1;
    self->bottom = 0;
    for (int c = 0; c < columns; c++) {
        self->bottom |= (bitboard)1 << (c * self->stride);
        self->column_masks[c] = (((bitboard)1 << rows) - 1) << (c * self->stride);
    }
    self->board = self->bottom * (((bitboard)1 << rows) - 1);
    /* Centre first, then outwards, left before right (as the Python search). */
    int placed = 0;
    for (int distance = 0; placed < columns; distance++)
        for (int c = 0; c < columns; c++) {
            int twice = 2 * c - columns + 1;
            if ((twice < 0 ? -twice : twice) == distance)
                self->order[placed++] = c;
        }
    const uint64_t size = (uint64_t)1 << table_bits;
    PyMem_Free(self->table);
    self->table = PyMem_Calloc(size, sizeof(uint64_t));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->table_bits = table_bits;
    self->nodes = 0;
    self->max_nodes = 0;
    self->deadline = -1;
    self->busy = 0;
    return 0;
}

static void Solver_dealloc(SolverObject *self)
{
    PyMem_Free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int parse_position(SolverObject *self, PyObject *current_obj, PyObject *mask_obj,
                          bitboard *current, bitboard *mask)
{
    *current = PyLong_AsUnsignedLongLong(current_obj);
    if (PyErr_Occurred())
        return -1;
    *mask = PyLong_AsUnsignedLongLong(mask_obj);
    if (PyErr_Occurred())
        return -1;
    if ((*mask & ~self->board) || (*current & ~*mask)) {
        PyErr_SetString(PyExc_ValueError, "not a position of this board");
        return -1;
    }
    return 0;
}

static PyObject *Solver_search(SolverObject *self, PyObject *args)
{
    PyObject *current_obj, *mask_obj;
    int moves, alpha, beta;
    bitboard current, mask;
    if (!PyArg_ParseTuple(args, "OOiii", &current_obj, &mask_obj, &moves, &alpha, &beta))
        return NULL;
    if (parse_position(self, current_obj, mask_obj, &current, &mask) < 0)
        return NULL;
    if (alpha >= beta) {
        PyErr_SetString(PyExc_ValueError, "the window is empty");
        return NULL;
    }
    if (moves != __builtin_popcountll(mask)) {
        PyErr_SetString(PyExc_ValueError, "moves is not the number of discs on the board");
        return NULL;
    }
    if (moves > self->cells - 1 ||
        threats(self, current, mask) & ((mask + self->bottom) & self->board)) {
        PyErr_SetString(PyExc_ValueError, "the player to move can win at once or the board is full");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return NULL;
    }
    self->busy = 1;
    self->aborted = 0;
    const bitboard danger = threats(self, current ^ mask, mask);
    int score;
    /* The table belongs to this object and `busy` keeps other threads out. */
    Py_BEGIN_ALLOW_THREADS
    score = negamax(self, current, mask, moves, alpha, beta, danger);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (self->aborted)
        Py_RETURN_NONE;
    return PyLong_FromLong(score);
}

static PyObject *Solver_reset(SolverObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is searching in another thread");
        return NULL;
    }
    /* A fresh zeroed allocation rather than a memset: large blocks come
     * straight from the kernel, zeroed page by page only when touched, so a
     * reset before a small search costs next to nothing. */
    uint64_t *fresh = PyMem_Calloc((size_t)1 << self->table_bits, sizeof(uint64_t));
    if (!fresh)
        return PyErr_NoMemory();
    PyMem_Free(self->table);
    self->table = fresh;
    self->nodes = 0;
    Py_RETURN_NONE;
}

static PyObject *Solver_prefault(SolverObject *self, PyObject *Py_UNUSED(ignored))
{
    /* Zeros written over an already zero table: only so that the memory is
     * mapped now rather than page by page during a timed search. */
    memset(self->table, 0, ((size_t)1 << self->table_bits) * sizeof(uint64_t));
    Py_RETURN_NONE;
}

static PyObject *Solver_limit(SolverObject *self, PyObject *args)
{
    double seconds;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "dK", &seconds, &max_nodes))
        return NULL;
    self->deadline = seconds < 0 ? -1 : thread_seconds() + seconds;
    self->max_nodes = max_nodes ? self->nodes + max_nodes : 0;
    Py_RETURN_NONE;
}

static PyObject *Solver_threats(SolverObject *self, PyObject *args)
{
    PyObject *stones_obj, *mask_obj;
    bitboard stones, mask;
    if (!PyArg_ParseTuple(args, "OO", &stones_obj, &mask_obj))
        return NULL;
    if (parse_position(self, stones_obj, mask_obj, &stones, &mask) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(threats(self, stones, mask));
}

static PyObject *Solver_get_nodes(SolverObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyObject *Solver_get_table_size(SolverObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong((uint64_t)1 << self->table_bits);
}

static PyMethodDef Solver_methods[] = {
    {"search", (PyCFunction)Solver_search, METH_VARARGS,
     "search(current, mask, moves, alpha, beta) -> score within the window, a bound beyond "
     "it, or None if the budget ran out. The player to move must not be able to win at once."},
    {"reset", (PyCFunction)Solver_reset, METH_NOARGS, "Forget every bound and zero the node count."},
    {"prefault", (PyCFunction)Solver_prefault, METH_NOARGS,
     "Map the whole table now (benchmarks: the reference solver does so at start-up). "
     "Call it only on a fresh or reset solver: it forgets every bound."},
    {"limit", (PyCFunction)Solver_limit, METH_VARARGS,
     "limit(seconds, max_nodes): thread CPU seconds (< 0: none) and nodes (0: none) for the "
     "searches after it."},
    {"threats", (PyCFunction)Solver_threats, METH_VARARGS,
     "threats(stones, mask) -> the empty cells that would complete a line of stones."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "positions searched since the last reset", NULL},
    {"table_size", (getter)Solver_get_table_size, NULL, "entries in the table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.engines._c4core.Solver",
    .tp_doc = "Solver(columns=7, rows=6, connect=4, table_bits=23): the compiled negamax "
              "with its own transposition table (about 8 bytes x 2**table_bits).",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

static struct PyModuleDef c4core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_c4core",
    .m_doc = "The compiled search core of the Connect Four solver.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__c4core(void)
{
    if (PyType_Ready(&SolverType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&c4core_module);
    if (!module)
        return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(module, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
