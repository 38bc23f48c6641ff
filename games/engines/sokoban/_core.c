/* The solver's compiled search core: best-first search over pushes.
 *
 * The Python side (core.py) prepares everything that needs thought once per
 * level -- the floor, the live squares, the push distances to every goal,
 * the packing order -- and this loop only does what Python is slow at:
 * millions of expansions, each a flood fill of the player's area, the pushes
 * from it, a freeze test, a PI-corral test and a matching bound. The rules
 * it follows are the same as the pure-Python searches in solver.py (see
 * their docstrings for why each pruning keeps solutions); the answer is a
 * list of pushes that the caller replays through the engine.
 *
 * A node is a sorted list of box squares plus the canonical player square
 * (the lowest square of his area). Nodes live in chunks of fixed-size
 * records, found again through an open-addressing table keyed by a Zobrist
 * hash; the open list is a binary heap. Everything allocated is counted,
 * and the search stops with "memory" when the count would pass the budget.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INF (1 << 20)
#define CHUNK_BITS 16
#define CHUNK_NODES (1 << CHUNK_BITS)
/* Expansions between calls of the Python check (time, cancel, progress). */
#define CHECK_EVERY 512
/* The priority a child that is not novel loses (see novel): past any bound. */
#define NOVELTY_STEP (1 << 22)
/* The bounds novelty keeps apart (see novel): past any real bound. */
#define NOVELTY_BOUNDS (1 << 16)
/* The largest ``endgame`` (search's): the endgames tried grow fast with it
 * (FESS from both ends, before ENDGAME_SHARE: 17 on Holland 20 at 8
 * pushes, 1,525 at 12; 76,970 on Grigr2001 19 at 20). */
#define ENDGAME_PUSHES_MAX 16
/* The prober's expansions for endgames: at most one for this many of the
 * search's own. Where the children near the end are many and the prober
 * finishes none, the tries cost more than the search: penalty 3 on Holland
 * 13 tried 21,550 endgames, 1.98 million of the prober's expansions for
 * 9,780 of its own (4.35 s of CPU against 0.11 s without); with this, 26
 * (0.1 s), and Holland 20's 17 as before. */
#define ENDGAME_SHARE 4
/* The largest ``weighted``. */
#define WEIGHTED_MAX 16

/* A node's record: this head, then its boxes (its key). Its hash is not
 * kept: the table's slot holds what lookups and growth need of it (see
 * slot_of), and 8 bytes more a record were a tenth of a search's memory. */
typedef struct {
    int32_t parent;
    uint32_t move; /* box square << 2 | direction (LURD) */
    int32_t g;
    uint16_t player;
    uint8_t closed : 1;
    /* The advisors' weight so far, for the second lane (search's ``dual``;
     * kept in closed's byte so that a head stays 16 bytes): queue_advised. */
    uint8_t lane_cost : 7;
    uint8_t cost; /* FESS's weight so far (search's ``box_moves`` 2): see add_child */
} Head;
_Static_assert(_Alignof(Head) <= 4, "records are laid out four bytes apart (prepare)");

typedef struct {
    int32_t priority;
    int32_t tie;
    int32_t node;
} Entry;

typedef struct {
    Entry *data;
    size_t length, capacity;
} Heap;

/* The learned patterns that hold a square (pattern_store): each one's
 * squares folded into 64 bits (square_bit), so that most patterns a
 * position does not hold are passed over without reading their record, and
 * its record's offset in s->pattern_data, each in an array of the square's
 * own, read in a row by pattern_deadlock (one list of links for all the
 * squares, followed link by link, was a cache miss a pattern: 7% of the CPU
 * where a search had learned some thousands). */
typedef struct {
    uint64_t *squares;
    uint32_t *offset;
    int32_t count, capacity;
} PatternList;

static inline uint64_t square_bit(int cell) { return 1ULL << (cell & 63); }

/* Feature cells: boxes packed (on goals, in packing order) by free regions,
 * the regions counted up to REGIONS - 1. */
#define REGIONS 16
#define FESS_WEIGHT 4096

/* A packing plan's verdict: room ``room`` (-1: a free slot) with the goals of
 * ``filled`` holding boxes leaves ``blocked`` of its empty goals that can no
 * longer be filled. */
typedef struct {
    uint64_t filled;
    int32_t room, blocked;
} PlanEntry;
#define PLAN_SLOTS_MAX ((size_t)1 << 20)

/* The frozen-goal test's cache of squares by frozen set (frozen_goals_deadlock).
 * A set takes the slot its key picks, so two sets in turn on one slot redo
 * each other's pulls: with 64 slots FESS's search on Sokoban Perfect 47
 * missed 91,113 times in 290,200 tests (the pulls were a seventh of its
 * CPU), with 1024 slots 527 times in 351,678, about that many sets in all
 * (docs/benchmarks.md, session 62). */
#define FG_SLOTS_MAX 1024
#define FG_CACHE_BYTES ((size_t)1 << 22)

/* A child of the node being expanded, waiting for its weight (advisors:
 * see queue_advised): its node, open list, bound (with the packing
 * penalty), pushes, novelty, and what FESS's advisors look at (the
 * boxes packed are the cell's). */
typedef struct {
    int64_t target;
    int64_t bound;
    int cell, child_g, fresh, regions, area;
} Deferred;

typedef struct Search {
    /* The level. */
    int width, size, boxes, goals;
    int step[4];
    const uint8_t *floor, *live;
    uint8_t *dead;
    int *goal_cell, *goal_of;
    const uint16_t *dist; /* dist[cell * goals + goal] */
    int *nearest, *nearest_goal;
    int *layer, *group, groups;
    /* Rooms in order (packing.py's ``conditions``): a box on goal g is out
     * of packing order while, for one of its conditions c (after_start[g] <=
     * c < after_start[g + 1]), fewer than wait_least[c] boxes stand on the
     * squares wait_cell[wait_start[c] .. wait_start[c + 1]); ``afters``
     * conditions in all. */
    int *after_start, *wait_least, *wait_start, *wait_cell, afters;
    int weight, packing, corrals;
    /* Weighted A* (greedy searches only; 0: off): the priority is pushes +
     * ``weighted`` * bound instead of the bound alone (see search_doc). */
    int weighted;
    /* Tunnel macros (greedy forward searches only): see tunnel_end. */
    int tunnels;
    /* Goal-room macros (greedy forward searches only): see goal_macro. Each
     * macro's pushes, kept as [count, push, push, ...] records in ``macros``
     * (a macro move holds its record's offset); the path search's states
     * (square * 4 + the direction of the push that brought the box there),
     * their parents and marks, and the player's area at each state. */
    int goal_macros;
    /* Box-to-goal macros (greedy forward searches only): see box_macro. */
    int box_macros;
    /* Box moves (greedy forward searches only): see box_moves. */
    int box_moves;
    /* Novelty (greedy searches only): see novel. */
    int novelty;
    /* Exploration (greedy searches only; 0: off): the expansions in a
     * hundred that take a node of the open list at random (next_entry),
     * drawn from ``draws``. */
    int explore;
    uint64_t draws;
    /* Novelty's atoms seen, a block for each bound (novel): novel_words words
     * of box squares, then as many of player squares; novel_bounds blocks. */
    uint64_t *novel_bits;
    size_t novel_bounds;
    int novel_words;
    /* Packing plans (greedy forward searches only): see room_blocked. Each
     * room's goals (room_goal[room_start[k]..room_start[k + 1]), a goal's
     * place in its room, the peel's squares and marks, and the verdicts so
     * far by (room, goals filled). */
    int plans;
    int *room_start, *room_goal, *room_place;
    uint8_t *plan_block;
    uint32_t *plan_reach, plan_stamp;
    PlanEntry *plan_table;
    size_t plan_capacity, plan_count;
    uint32_t *macros;
    size_t macro_length, macro_capacity;
    int *mq_state, *mq_parent;
    uint32_t *mq_visit, mq_stamp;
    uint32_t *mq_reach, mq_reach_stamp;
    /* box_moves' area with the moved box lifted off the board. */
    uint32_t *mq_whole, mq_whole_stamp;
    /* box_moves' states (marked with mq_done_stamp, fresh for each box)
     * whose child is one already made: the box on the same square, the
     * player in the same area. */
    uint32_t *mq_done, mq_done_stamp;
    /* A backward search pulls boxes from the goals towards the start; its
     * "goals" are the start squares. */
    int backward;
    uint64_t *zobrist;
    /* The nodes. */
    size_t record;
    uint8_t **chunks;
    size_t chunk_count, chunk_capacity;
    int64_t count;
    uint64_t *table; /* slots: its boxes' hash's high half << 32 | a node's number (SLOT_EMPTY: none) */
    size_t table_capacity;
    /* The open list: one heap, or with ``features`` one heap per feature
     * cell, taken in turn (``cycle`` lists the cells that ever had a node).
     * With ``dual`` a second lane of heap_count heaps more (heaps and cycle
     * from heap_count on), ordered by the advisors' weights, the lanes
     * taking turns (next_entry): every child is in the first, the advisors'
     * picks in the second too; ``open_second`` of the ``open`` entries are
     * the second lane's. */
    int features, dual, lane;
    Heap *heaps;
    int heap_count;
    int *cycle, cycle_length[2], cursor[2];
    int64_t open, open_second;
    /* The bytes counted against the memory the search may take, with the
     * search from the other end if any (``pool``: pool_own, or the other
     * end's), and that memory. ``budget`` is the search's nominal share,
     * which sizes its caches. */
    size_t budget, *pool, pool_own, pool_budget;
    /* Scratch, sized once. */
    int *occupant;      /* box index + 1, or 0 */
    uint32_t *reached;  /* the expanded node's area: == reach_stamp */
    uint32_t reach_stamp;
    int reached_low;    /* its lowest square (the node's canonical player square) */
    uint32_t *seen;     /* the child's flood fill */
    uint32_t seen_stamp;
    uint32_t *area;     /* corral areas */
    uint32_t area_stamp;
    /* Feature cells: the expanded node's regions of free squares, labelled
     * (label_regions), and how many (see child_regions). */
    uint32_t *region, region_stamp;
    /* cell_pieces: its two searches' marks and queues, and the piece closed. */
    uint32_t *split_mark, split_stamp, split_closed;
    int *split_queue, split_low;
    int node_regions;
    /* FESS's weights (box_moves 2): the expanded node's boxes packed. */
    int node_packed;
    /* FESS's explorer (box_moves 3): the squares of the last flood, of the
     * expanded node's area, and of the area of the child being added
     * (box_moves; -1: not known). */
    int flooded, node_area, child_area;
    /* FESS's advisors (search's ``advisors``; box_moves 2 or 3 with
     * features): each makes its best move free (queue_advised), not every
     * move it would take; the children wait here for their weights. */
    int advisors;
    Deferred *deferred;
    size_t deferred_count, deferred_capacity;
    /* Endgames (search's ``endgame``; the forward greedy search with a
     * prober): a new child whose matching bound is at most endgame_pushes
     * is handed to the prober, which may finish it (endgame_finish): its
     * node then in endgame_node, -1 before. */
    int endgame_pushes;
    int64_t endgame_node, endgame_spent;
    int *floor_cells, floor_count;
    /* The board by rows, a bit a square, where it is at most 64 squares wide
     * (``row_bits``; else floods go square by square): each occupant array
     * holds its boxes' rows too, from its int ``rows_at`` on (box_rows), kept
     * by occupy; the floor's rows, and a flood's scratch rows. */
    int row_bits, height, rows_at, fill_steps;
    uint16_t *cell_row;
    uint8_t *cell_column;
    uint64_t *floor_rows, *fill_reach, *fill_free;
    int *floor_index; /* a floor square's place in floor_cells; -1 off the floor */
    /* Node keys (pack_boxes): bits for the floor squares or a list of squares,
     * their bytes, and a key made for a lookup. */
    int bit_keys;
    size_t key_bytes;
    uint8_t *key;
    int *queue;
    uint8_t *held;
    int *stuck, stuck_count, stuck_overflow;
    /* Frozen-goal deadlocks: scratch, and the verdicts per frozen set. */
    uint8_t *fg_frozen;
    /* A slot's squares: fg_words words a square, bit g set where a lone box
     * can be pushed to goal g; fg_table the slot in use. */
    uint64_t *fg_reach, *fg_table;
    int fg_words;
    int *fg_boxes, *fg_owner;
    uint64_t *fg_seen; /* (the goals an augmenting path has tried) */
    uint64_t *fg_keys;
    int fg_slots;
    uint8_t *movable, *fence;
    uint16_t *cells, *child_cells;
    int *max_empty;
    uint32_t *goal_taken;
    uint32_t taken_stamp;
    /* Corral deadlock searches (corral_deadlock): the corral's boxes and free
     * squares, the small search's own board, marks and nodes, and the
     * verdicts so far (a verdict holds wherever the other boxes are). */
    int corral_mode;
    int *cs_occupant, *cs_free, cs_free_count, cs_boxes, cs_limit;
    uint32_t *cs_free_mark, cs_free_stamp; /* corral_deadlock's free squares: == cs_free_stamp */
    /* Box-set deadlocks (box_set_deadlock): the most boxes a set may have (0:
     * off), and the tests and deadlocks so far. */
    int box_sets;
    uint16_t *set_order;
    int64_t set_tests, set_deadlocks;
    /* Learned deadlock patterns (learn_pattern, pattern_deadlock): on or
     * off; the patterns as records [boxes, player square or 0 (anywhere),
     * squares..., and with a player the bits of his area on the boxes' own
     * board, ``area_words`` of them] in ``pattern_data``, listed by each of
     * their squares (``pattern_lists``, by square), their keys
     * (no pattern twice), a scratch area, the expansions since the last
     * box-set test and between two, and counts: patterns stored, children
     * they pruned. */
    int patterns, area_words;
    uint16_t *pattern_area;
    uint16_t *pattern_data;
    size_t pattern_length;
    PatternList *pattern_lists;
    int32_t pattern_count, pattern_link_count;
    uint64_t *pattern_keys;
    uint32_t *pattern_marks, pattern_stamp;
    int set_clock, set_every;
    int64_t pattern_prunes;
    size_t pattern_data_capacity;
    int32_t pattern_link_capacity;
    /* Whole-board probes (board_probe): every ``probe_every``-th expansion
     * (0: off) the position is searched by ``prober``, a search of its own
     * (greedy, PI-corrals, no macros), for at most ``probe_limit``
     * expansions; its boxes (probe_cells) and a lost set being shrunk
     * (probe_set); the probes made, the losses they proved, and the
     * patterns learned from those. */
    int probe_every, probe_clock, probe_limit;
    struct Search *prober;
    uint16_t *probe_cells, *probe_set, *probe_trial;
    /* The expanded node's boxes folded as a PatternList's squares: of boxes
     * 0..i-1 (box_bits[i]) and of boxes i+1.. (box_bits[n + 1 + i]). */
    uint64_t *box_bits;
    int64_t probes, probe_finds, probe_patterns;
    uint16_t *cs_cells, *cs_nodes, *cs_child;
    uint32_t *cs_reach, *cs_seen, cs_stamp;
    int32_t *cs_table, *cs_slot;
    uint64_t *cs_hashes, *verdict_key;
    uint8_t *verdict;
    /* Matching: the expanded node's rows, prices and owners (1-based). */
    int64_t *row_price, *column_price, *row_price2, *column_price2, *slack, *reached_at;
    int *owner, *owner2, *way, *pending, *settled;
    uint8_t *used;
    int duals_ready;
    int64_t duals_total;
    /* Children's best matchings, kept for when they are expanded (see
     * keep_duals): a slot a node, by its number; whether child_bound left
     * one in s->owner2 and the prices2; the node being expanded. */
    int32_t *duals_cache;
    size_t duals_stride, duals_slots;
    int child_duals;
    int64_t expanding;
    const uint16_t **rows;
    /* Counters; ``shortcuts``: macro moves made (tunnel or goal room), which
     * make running out of positions no proof. */
    int64_t expanded, generated, shortcuts;
    /* For a trace (search's ``trace``): the last node this search expanded,
     * its priority, and the lowest priority it has expanded. */
    int64_t last_node;
    int32_t last_priority, best_priority;
    int popped_cell, last_cell; /* (the feature cells' open list it came from) */
} Search;

static inline Head *node_head(Search *s, int64_t node) {
    return (Head *)(s->chunks[node >> CHUNK_BITS] + (size_t)(node & (CHUNK_NODES - 1)) * s->record);
}

/* A node's boxes as stored: its key (see pack_boxes). */
static inline uint8_t *node_key(Search *s, int64_t node) {
    return (uint8_t *)node_head(s, node) + sizeof(Head);
}

/* A node's boxes are kept in the fewer bytes of two forms: the sorted list of
 * their squares (two bytes a box), or one bit for each floor square (a bit
 * set for each box: the larger levels' many boxes on a hundred or so floor
 * squares, where it takes the record from 88 bytes to 40 and so lets a
 * search keep twice the positions in its memory). Either form is one key
 * per box set, so that keys compare as the boxes do; both ends of a search
 * use the same form (the same level and box count). */
static void pack_boxes(Search *s, const uint16_t *cells, uint8_t *key) {
    if (!s->bit_keys) {
        /* (A probe, board_probe, may hold fewer boxes than the key has room for.) */
        size_t used = (size_t)s->boxes * sizeof(uint16_t);
        memcpy(key, cells, used);
        memset(key + used, 0, s->key_bytes - used);
        return;
    }
    memset(key, 0, s->key_bytes);
    for (int i = 0; i < s->boxes; i++) {
        int index = s->floor_index[cells[i]];
        key[index >> 3] |= (uint8_t)(1u << (index & 7));
    }
}

/* The sorted squares of the boxes of ``key`` (pack_boxes) into ``cells``. */
static void unpack_boxes(Search *s, const uint8_t *key, uint16_t *cells) {
    if (!s->bit_keys) {
        memcpy(cells, key, (size_t)s->boxes * sizeof(uint16_t));
        return;
    }
    int k = 0;
    for (size_t byte = 0; byte < s->key_bytes; byte++)
        for (unsigned bits = key[byte]; bits; bits &= bits - 1)
            cells[k++] = (uint16_t)s->floor_cells[byte * 8 + (size_t)__builtin_ctz(bits)];
}

static inline uint64_t player_mix(Search *s, int player) {
    return s->zobrist[player] * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
}

/* Whether ``bytes`` more fit the memory the search shares with the search
 * from the other end: one end may take what the other leaves (the pulls of
 * a large level take little; a fixed half each stopped the pushes with half
 * the memory unused). Until the memory is full the searches are the same. */
static inline int fits(const Search *s, size_t bytes) { return *s->pool + bytes <= s->pool_budget; }

static inline void count_bytes(Search *s, size_t bytes) { *s->pool += bytes; }

static void *counted_alloc(Search *s, size_t bytes) {
    if (!fits(s, bytes)) return NULL;
    void *p = calloc(1, bytes);
    if (p != NULL) count_bytes(s, bytes);
    return p;
}

/* --- the node table ------------------------------------------------------ */

/* The node table's slots hold, beside each node's number, the high half of
 * its boxes' hash (their Zobrist keys, no player), so that a lookup passes
 * over the other nodes of its probe sequence without reading their records:
 * a record read is a cache miss on a large search, and most lookups are of
 * new positions, which read every record of the sequence (the lookups were a
 * fifth of the CPU). The same half picks the slot where a lookup starts, so
 * that the table grows from its slots alone, without a record read a node.
 * (Two nodes that start at the same slot then differ in only the half's
 * 32 - log2(capacity) bits above those that picked it: 7 at 2^25 slots,
 * some 25 million positions, enough where few nodes share a start.) */
#define SLOT_EMPTY UINT64_MAX
#define HASH_HIGH 0xFFFFFFFF00000000ULL

static inline uint64_t slot_of(uint64_t boxes_hash, int64_t node) {
    return (boxes_hash & HASH_HIGH) | (uint32_t)node;
}

/* Where a lookup of the boxes of ``boxes_hash`` starts (a table of ``mask``
 * + 1 slots, at most 2^32): the boxes alone pick it, so that add_child can
 * fetch the slot from memory while it works out the player's square (a
 * child's positions with other player areas are few, and probe on beside
 * it). */
static inline size_t box_slot(uint64_t boxes_hash, size_t mask) {
    return (size_t)(boxes_hash >> 32) & mask;
}

/* The hash of the boxes on ``cells`` (``k`` of them): their Zobrist keys. */
static inline uint64_t boxes_hash_of(const Search *s, const uint16_t *cells, int k) {
    uint64_t hash = 0;
    for (int i = 0; i < k; i++) hash ^= s->zobrist[cells[i]];
    return hash;
}

/* The node of the boxes of ``key`` (pack_boxes; ``boxes_hash`` their hash)
 * and the player's square; -1: none. */
static int64_t find(Search *s, uint64_t boxes_hash, int player, const uint8_t *key) {
    size_t mask = s->table_capacity - 1;
    uint64_t high = boxes_hash & HASH_HIGH;
    size_t i = box_slot(high, mask);
    for (uint64_t slot; (slot = s->table[i]) != SLOT_EMPTY; i = (i + 1) & mask) {
        if ((slot & HASH_HIGH) != high) continue;
        int64_t node = (uint32_t)slot;
        Head *h = node_head(s, node);
        if (h->player == player && memcmp(node_key(s, node), key, s->key_bytes) == 0) return node;
    }
    return -1;
}

static int grow_table(Search *s) {
    size_t capacity = s->table_capacity * 2;
    uint64_t *table = counted_alloc(s, capacity * sizeof(uint64_t));
    if (table == NULL) return 0;
    memset(table, 0xff, capacity * sizeof(uint64_t));
    for (size_t old = 0; old < s->table_capacity; old++) {
        uint64_t slot = s->table[old];
        if (slot == SLOT_EMPTY) continue;
        size_t i = box_slot(slot, capacity - 1);
        while (table[i] != SLOT_EMPTY) i = (i + 1) & (capacity - 1);
        table[i] = slot;
    }
    *s->pool -= s->table_capacity * sizeof(uint64_t);
    free(s->table);
    s->table = table;
    s->table_capacity = capacity;
    return 1;
}

/* A new node; -1 when the memory budget is spent. The table doubles past
 * three quarters full; where the budget has no room for the doubled table
 * (the old one and the new are held at once), it fills on to seven eighths,
 * its lookups longer: a table of a quarter of the budget could not double
 * while a fifth of the budget was still free for records. */
static int64_t add(Search *s, uint64_t boxes_hash, int player, const uint8_t *key, int64_t parent, uint32_t move,
                   int g) {
    if ((size_t)(s->count + 1) * 4 > s->table_capacity * 3 && !grow_table(s) &&
        (size_t)(s->count + 1) * 8 > s->table_capacity * 7)
        return -1;
    if (s->count >= INT32_MAX - 1) return -1;
    size_t chunk = (size_t)(s->count >> CHUNK_BITS);
    if (chunk >= s->chunk_count) {
        if (chunk >= s->chunk_capacity) {
            size_t capacity = s->chunk_capacity ? s->chunk_capacity * 2 : 64;
            uint8_t **chunks = realloc(s->chunks, capacity * sizeof(uint8_t *));
            if (chunks == NULL) return -1;
            s->chunks = chunks;
            s->chunk_capacity = capacity;
        }
        uint8_t *block = counted_alloc(s, (size_t)CHUNK_NODES * s->record);
        if (block == NULL) return -1;
        s->chunks[s->chunk_count++] = block;
    }
    int64_t node = s->count++;
    Head *h = node_head(s, node);
    h->parent = (int32_t)parent;
    h->move = move;
    h->g = g;
    h->player = (uint16_t)player;
    h->closed = 0;
    h->lane_cost = 0;
    h->cost = 0;
    memcpy(node_key(s, node), key, s->key_bytes);
    size_t mask = s->table_capacity - 1;
    size_t i = box_slot(boxes_hash, mask);
    while (s->table[i] != SLOT_EMPTY) i = (i + 1) & mask;
    s->table[i] = slot_of(boxes_hash, node);
    return node;
}

/* --- the open list -------------------------------------------------------- */

static inline int entry_before(const Entry *a, const Entry *b) {
    if (a->priority != b->priority) return a->priority < b->priority;
    return a->tie < b->tie;
}

static int heap_push(Search *s, int cell, int32_t priority, int32_t tie, int64_t node) {
    Heap *h = &s->heaps[cell];
    int lane = cell >= s->heap_count;
    if (h->length == h->capacity) {
        /* (Half as much again, not twice: less held unused, and a large
         * heap's last step is smaller where the budget is nearly spent.) */
        size_t capacity = h->capacity ? h->capacity + h->capacity / 2 : 256;
        size_t added = (capacity - h->capacity) * sizeof(Entry);
        if (!fits(s, added)) return 0;
        Entry *data = realloc(h->data, capacity * sizeof(Entry));
        if (data == NULL) return 0;
        count_bytes(s, added);
        if (h->capacity == 0) s->cycle[lane * s->heap_count + s->cycle_length[lane]++] = cell;
        h->data = data;
        h->capacity = capacity;
    }
    Entry e = {priority, tie, (int32_t)node};
    size_t i = h->length++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_before(&e, &h->data[up])) break;
        h->data[i] = h->data[up];
        i = up;
    }
    h->data[i] = e;
    s->open++;
    s->open_second += lane;
    return 1;
}

/* The entry at ``at`` of heap ``h``, taken out: the top (heap_pop), or any
 * other (an exploring search's, next_entry). */
static inline Entry heap_take(Search *s, Heap *h, size_t at) {
    Entry taken = h->data[at];
    Entry last = h->data[--h->length];
    size_t n = h->length, i = at;
    s->open--;
    s->open_second -= h - s->heaps >= s->heap_count;
    if (at == n) return taken; /* (it was the last) */
    /* The last entry fills the hole: up while it comes before the parent, */
    while (i > 0 && entry_before(&last, &h->data[(i - 1) / 2])) {
        h->data[i] = h->data[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    /* else down while a child comes before it. */
    if (i == at) {
        while (1) {
            size_t child = 2 * i + 1;
            if (child >= n) break;
            if (child + 1 < n && entry_before(&h->data[child + 1], &h->data[child])) child++;
            if (!entry_before(&h->data[child], &last)) break;
            h->data[i] = h->data[child];
            i = child;
        }
    }
    h->data[i] = last;
    return taken;
}

static Entry heap_pop(Search *s, Heap *h) { return heap_take(s, h, 0); }

/* xorshift64: the search's own draws (``explore``), the same each run. */
static inline uint64_t draw(Search *s) {
    uint64_t x = s->draws;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return s->draws = x;
}

/* The next node to expand: the best of the one heap, or of the next
 * non-empty feature cell in turn. Diversity across cells is what keeps a
 * greedy search from spending itself on one plateau (FESS). With
 * ``explore``, that many expansions in a hundred take a node of the heap
 * at random instead (see search_doc). With ``dual`` the two lanes take
 * turns, one with nothing open giving its turn to the other. */
static Entry next_entry(Search *s) {
    int lane = 0;
    if (s->dual) {
        lane = s->lane ^= 1;
        if (lane ? !s->open_second : s->open == s->open_second) lane ^= 1;
    }
    const int *cycle = s->cycle + lane * s->heap_count;
    while (1) {
        int cell = cycle[s->cursor[lane]];
        s->cursor[lane] = (s->cursor[lane] + 1) % s->cycle_length[lane];
        Heap *h = &s->heaps[cell];
        if (h->length) {
            s->popped_cell = cell - lane * s->heap_count;
            if (s->explore && h->length > 1 && (int)(draw(s) % 100) < s->explore)
                return heap_take(s, h, (size_t)(draw(s) % h->length));
            return heap_pop(s, h);
        }
    }
}

/* --- the player's area ---------------------------------------------------- */

static inline uint64_t *box_rows(const Search *s, int *occupant) {
    return (uint64_t *)(void *)(occupant + s->rows_at);
}

/* Put ``box`` (a box's index + 1, or 0 for none) on ``cell`` of ``occupant``
 * (s->occupant or another board of the search's size), its rows kept with it.
 * Every write to a board goes through here. */
static inline void occupy(const Search *s, int *occupant, int cell, int box) {
    occupant[cell] = box;
    if (!s->row_bits) return;
    uint64_t *rows = box_rows(s, occupant), bit = 1ULL << s->cell_column[cell];
    if (box) rows[s->cell_row[cell]] |= bit;
    else rows[s->cell_row[cell]] &= ~bit;
}

/* The squares of ``free`` (one row) joined along the row to a square of
 * ``seed``: upwards by the carry of an addition, which runs through a run of
 * free squares and stops at its end; downwards by doubling shifts (``steps``
 * of them reach across the level's longest run of floor in a row). */
static inline uint64_t row_fill(uint64_t seed, uint64_t free, int steps) {
    seed &= free;
    uint64_t up = ((free + seed) ^ free) & free;
    uint64_t down = seed, through = free;
    for (int shift = 1; steps > 0; steps--, shift <<= 1) {
        down |= through & (down >> shift);
        through &= through >> shift;
    }
    return up | down;
}

/* flood's square-by-square search: boards over 64 squares wide, a flood
 * from a square that is not free, and search's ``square_floods``. */
static int flood_squares(Search *s, int start, uint32_t *marks, uint32_t stamp) {
    int head = 0, tail = 0, low = start;
    marks[start] = stamp;
    s->queue[tail++] = start;
    while (head < tail) {
        int cell = s->queue[head++];
        if (cell < low) low = cell;
        for (int d = 0; d < 4; d++) {
            int next = cell + s->step[d];
            if (s->floor[next] && !s->occupant[next] && marks[next] != stamp) {
                marks[next] = stamp;
                s->queue[tail++] = next;
            }
        }
    }
    s->flooded = tail;
    return low;
}

/* The board's free squares a row a word into s->fill_free, and s->fill_reach cleared. */
static void free_rows(Search *s) {
    const uint64_t *boxes = box_rows(s, s->occupant);
#ifdef SOKOBAN_CHECK_ROWS /* (built with it, every flood checks that the rows and squares agree) */
    for (int c = 0; c < s->size; c++)
        if (!!s->occupant[c] != (int)((boxes[s->cell_row[c]] >> s->cell_column[c]) & 1)) abort();
#endif
    for (int y = 0; y < s->height; y++) {
        s->fill_free[y] = s->floor_rows[y] & ~boxes[y];
        s->fill_reach[y] = 0;
    }
}

/* The squares of s->fill_free joined to ``seed`` (squares of row ``first``)
 * into s->fill_reach (clear before), and the rows they span in *top_row
 * and *bottom_row: each row's free squares joined to those reached above it (a
 * sweep down) or below it (a sweep up), until a sweep up reaches nothing
 * new; a room is filled in a few sweeps. */
static void fill_rows(Search *s, int first, uint64_t seed, int *top_row, int *bottom_row) {
    const int h = s->height, steps = s->fill_steps;
    uint64_t *restrict reach = s->fill_reach;
    const uint64_t *restrict free = s->fill_free;
    int top = first, bottom = first;
    reach[first] = row_fill(seed, free[first], steps);
    int more = 1;
    while (more) {
        for (int y = top + 1; y < h; y++) {
            uint64_t from = reach[y - 1] & free[y] & ~reach[y];
            if (!from) {
                if (y > bottom) break;
                continue;
            }
            reach[y] |= row_fill(from, free[y], steps);
            if (y > bottom) bottom = y;
        }
        more = 0;
        for (int y = bottom - 1; y >= 0; y--) {
            uint64_t from = reach[y + 1] & free[y] & ~reach[y];
            if (!from) {
                if (y < top) break;
                continue;
            }
            reach[y] |= row_fill(from, free[y], steps);
            if (y < top) top = y;
            more = 1;
        }
    }
    *top_row = top;
    *bottom_row = bottom;
}

/* Flood from ``start`` over free squares, marking ``marks`` with ``stamp``;
 * returns the lowest square reached. A row of the board at a time
 * (fill_rows), where it is at most 64 squares wide: the floods were over a
 * third of the search's CPU square by square (a queue, and three tests of
 * each neighbour). */
static int flood(Search *s, int start, uint32_t *marks, uint32_t stamp) {
    /* (From a square that is not free, as the square-by-square search does.) */
    if (!s->row_bits || !s->floor[start] || s->occupant[start]) return flood_squares(s, start, marks, stamp);
    int top, bottom, low = -1, count = 0;
    free_rows(s);
    fill_rows(s, s->cell_row[start], 1ULL << s->cell_column[start], &top, &bottom);
    for (int y = top; y <= bottom; y++) {
        uint64_t bits = s->fill_reach[y];
        int row = y * s->width;
        count += __builtin_popcountll(bits);
        if (bits && low < 0) low = row + __builtin_ctzll(bits);
        while (bits) {
            marks[row + __builtin_ctzll(bits)] = stamp;
            bits &= bits - 1;
        }
    }
    s->flooded = count;
    return low;
}

/* Room for ``room`` more stamps from ``*stamp``, the counter of ``marks``
 * (``count`` of them): where the counter would wrap, the marks are cleared
 * and it starts again from 0 (returns 1 then). A wrapped counter would let
 * an old mark pass for a new one (a square reached that is not): after some
 * 2^32 stamps, an hour or more of search, which a solve from the command
 * line may take. */
static int make_room(uint32_t *stamp, uint32_t *marks, size_t count, uint32_t room) {
    if (*stamp <= UINT32_MAX - room) return 0;
    memset(marks, 0, count * sizeof(uint32_t));
    *stamp = 0;
    return 1;
}

/* The next stamp of ``*stamp``, the counter of ``marks`` (see make_room). */
static inline uint32_t fresh_stamp(uint32_t *stamp, uint32_t *marks, size_t count) {
    make_room(stamp, marks, count, 1);
    return ++*stamp;
}

/* Whether the free squares beside ``cell`` (onto ``side``, ``*sides`` of
 * them) all reach each other through its eight neighbours, so that a box
 * on ``cell`` cuts no region of free squares (the ring is walked in order:
 * two neighbours next to each other in it share a side). */
static int ring_joins(Search *s, int cell, int side[4], int *sides) {
    int w = s->width;
    const int ring[8] = {-w, -w + 1, 1, w + 1, w, w - 1, -1, -w - 1};
    int open[8], start = -1;
    *sides = 0;
    for (int k = 0; k < 8; k++) {
        int at = cell + ring[k];
        open[k] = s->floor[at] && !s->occupant[at];
        if (!open[k]) start = k;
        else if (!(k & 1)) side[(*sides)++] = at;
    }
    if (*sides <= 1 || start < 0) return 1;
    /* Count the runs of open squares, from a closed one, that hold a side. */
    int runs = 0, holds = 0;
    for (int step = 1; step <= 8; step++) {
        int k = (start + step) & 7;
        if (open[k]) {
            if (!(k & 1)) holds = 1;
        } else {
            runs += holds;
            holds = 0;
        }
    }
    return runs <= 1;
}

/* Into how many pieces taking ``cell`` (a box on the board now) out of
 * its region of free squares cuts it: 0 if no free square borders it, 1 if
 * the ring joins them (ring_joins), else, with two free squares beside it,
 * 1 or 2 as a search from both at once shows: a square from each in turn,
 * until they meet or one runs out. On 2 the one that ran out, a whole
 * region, is marked in s->split_mark with s->split_closed, its lowest
 * square s->split_low. -1: three or four free squares beside it that the
 * ring does not join (not searched). */
static int cell_pieces(Search *s, int cell) {
    int sides, side[4];
    if (ring_joins(s, cell, side, &sides)) return sides ? 1 : 0;
    if (sides > 2) return -1;
    uint32_t *mark = s->split_mark;
    make_room(&s->split_stamp, mark, (size_t)s->size, 2);
    uint32_t one = ++s->split_stamp, two = ++s->split_stamp;
    int *queue[2] = {s->split_queue, s->split_queue + s->size};
    int head[2] = {0, 0}, tail[2] = {1, 1}, low[2] = {side[0], side[1]};
    uint32_t own[2] = {one, two};
    for (int j = 0; j < 2; j++) {
        mark[side[j]] = own[j];
        queue[j][0] = side[j];
    }
    while (1) {
        for (int j = 0; j < 2; j++) {
            if (head[j] == tail[j]) {
                s->split_closed = own[j];
                s->split_low = low[j];
                return 2;
            }
            int at = queue[j][head[j]++];
            for (int d = 0; d < 4; d++) {
                int next = at + s->step[d];
                if (!s->floor[next] || s->occupant[next] || mark[next] == own[j]) continue;
                if (mark[next] == own[1 - j]) return 1;
                mark[next] = own[j];
                queue[j][tail[j]++] = next;
                if (next < low[j]) low[j] = next;
            }
        }
    }
}

/* The child's canonical player square without a flood of its area, where
 * the player stands in the expanded node's area (the squares ``marks``
 * holds with ``stamp``; ``low`` its lowest) or on ``from``, ``from`` opens
 * onto that area alone, and ``to`` leaves it whole or cuts it in two
 * (cell_pieces(to): ``pieces``): then the child's area is that area with
 * ``from`` added and ``to`` taken out, or the piece of it the player
 * stands in. Most pushes are so, and the floods of the children's areas
 * were a quarter of the search's time on the large levels. Whenever it
 * answers, the child's area lies within the node's and ``from``
 * (corral_deadlock counts on that). Returns -1 where the tests cannot tell
 * (the caller floods). The board is the child's (``from`` empty, the box
 * on ``to``). */
static int child_low(Search *s, const uint32_t *marks, uint32_t stamp, int low, int from, int to, int stand,
                     int pieces) {
    if (stand != from && marks[stand] != stamp) return -1;
    int joins = 0;
    for (int d = 0; d < 4; d++) {
        int next = from + s->step[d];
        if (!s->floor[next] || s->occupant[next]) continue;
        /* (A free square beside ``from`` outside the area: another area joins.) */
        if (marks[next] != stamp) return -1;
        joins = 1;
    }
    if (!joins) return -1;
    if (marks[to] == stamp && pieces < 0) return -1;
    int cut = pieces == 2 && marks[to] == stamp;
    if (cut && s->split_mark[stand] == s->split_closed) return s->split_low;
    if (to == low || (cut && s->split_mark[low] == s->split_closed)) return -1;
    if (cut && s->split_mark[from] == s->split_closed) return low;
    return from < low ? from : low;
}

/* --- deadlocks ------------------------------------------------------------ */

static int frozen(Search *s, int cell);

static int blocks(Search *s, int cell) {
    if (!s->floor[cell] || s->held[cell]) return 1;
    if (s->occupant[cell]) {
        s->held[cell] = 1;
        int result = frozen(s, cell);
        s->held[cell] = 0;
        return result;
    }
    return 0;
}

/* Whether the box on ``cell`` can never move, the boxes in ``held`` taken as
 * walls (deadlocks.py, _frozen). */
static int frozen(Search *s, int cell) {
    int mark = s->stuck_count;
    for (int axis = 0; axis < 2; axis++) {
        int step = axis ? s->width : 1;
        int before = cell - step, after = cell + step;
        if (blocks(s, before) || blocks(s, after)) continue;
        if (s->dead[before] && s->dead[after]) continue;
        s->stuck_count = mark;
        return 0;
    }
    /* A box can be found stuck again along another branch: the list is
     * bounded by the squares, and a longer one is left unjudged (no deadlock). */
    if (s->stuck_count >= s->size) {
        s->stuck_overflow = 1;
        return 1;
    }
    s->stuck[s->stuck_count++] = cell;
    return 1;
}

/* Kuhn's augmenting path for the frozen-goal matching: box ``b`` (index into
 * fg_boxes) takes a goal it reaches, or takes one from a box that can move on.
 * The goals a box reaches are a few words of bits, so a path skips the goals
 * it cannot take a word at a time (byte by byte, goal by goal, the matching
 * was a quarter of the CPU on the levels of 50 boxes and more). */
static int give_goal(Search *s, int b) {
    const uint64_t *reach = s->fg_table + (size_t)s->fg_boxes[b] * s->fg_words;
    for (int w = 0; w < s->fg_words; w++) {
        uint64_t open = reach[w] & ~s->fg_seen[w];
        while (open) {
            int bit = __builtin_ctzll(open);
            open &= open - 1;
            /* (A deeper path may have tried it since.) */
            if ((s->fg_seen[w] >> bit) & 1) continue;
            s->fg_seen[w] |= 1ULL << bit;
            int g = w * 64 + bit;
            if (s->fg_owner[g] < 0 || give_goal(s, s->fg_owner[g])) {
                s->fg_owner[g] = b;
                return 1;
            }
        }
    }
    return 0;
}

/* Frozen-goal deadlocks (deadlocks.py, push_deadlock): boxes frozen on goals
 * are walls from then on, and may cut the remaining goals off from the
 * remaining boxes (the mouth of a dead-end row of goals filled first). Each
 * free goal's squares are found by pulling a lone box back from it, with the
 * frozen boxes as walls and the player anywhere (so this can only miss
 * deadlocks, never invent one); then every free box must get a goal of its
 * own. The squares are kept for the last frozen sets, which recur: a
 * table of FG_SLOTS_MAX at most, each set in the slot its key picks
 * (recomputing them for the last set alone took a seventh of the CPU on
 * Grigr2001 84, a goal room filled in ever new orders). */
static int frozen_goals_deadlock(Search *s) {
    uint64_t key = 0x2545F4914F6CDD1DULL;
    for (int i = 0; i < s->stuck_count; i++) {
        int cell = s->stuck[i];
        if (s->fg_frozen[cell]) continue;
        s->fg_frozen[cell] = 1;
        key ^= s->zobrist[cell] * 0xD6E8FEB86659FD93ULL;
    }
    key |= 1; /* (an empty slot's key is 0) */
    int slot = (int)((key * 0x9E3779B97F4A7C15ULL) >> 40) & (s->fg_slots - 1);
    const int words = s->fg_words;
    s->fg_table = s->fg_reach + (size_t)slot * (size_t)words * (size_t)s->size;
    if (key != s->fg_keys[slot]) {
        s->fg_keys[slot] = key;
        memset(s->fg_table, 0, (size_t)words * (size_t)s->size * sizeof(uint64_t));
        for (int g = 0; g < s->goals; g++) {
            uint64_t *reach = s->fg_table + g / 64, bit = 1ULL << (g % 64);
            int goal = s->goal_cell[g];
            if (s->fg_frozen[goal]) continue;
            int head = 0, tail = 0;
            reach[(size_t)goal * words] |= bit;
            s->queue[tail++] = goal;
            while (head < tail) {
                int at = s->queue[head++];
                for (int d = 0; d < 4; d++) {
                    int before = at - s->step[d], pusher = before - s->step[d];
                    if ((reach[(size_t)before * words] & bit) || !s->floor[before] || s->fg_frozen[before] ||
                        !s->floor[pusher] || s->fg_frozen[pusher])
                        continue;
                    reach[(size_t)before * words] |= bit;
                    s->queue[tail++] = before;
                }
            }
        }
    }
    int boxes = 0;
    for (int i = 0; i < s->floor_count; i++) {
        int cell = s->floor_cells[i];
        if (s->occupant[cell] && !s->fg_frozen[cell]) s->fg_boxes[boxes++] = cell;
    }
    for (int g = 0; g < s->goals; g++) s->fg_owner[g] = -1;
    /* Each box first takes the first goal it reaches that no box took
     * (most do), then the others look for augmenting paths: Kuhn's method
     * finds a box's path, if it has one, whatever the matching it starts
     * from, so the verdict is the one from nothing. (The boxes left wait in
     * s->pending, the matching bound's scratch: node_duals, its only other
     * user, never runs while this does.) */
    uint64_t *taken = s->fg_seen + words;
    memset(taken, 0, (size_t)words * sizeof(uint64_t));
    int left = 0;
    for (int b = 0; b < boxes; b++) {
        const uint64_t *reach = s->fg_table + (size_t)s->fg_boxes[b] * words;
        int g = -1;
        for (int w = 0; w < words && g < 0; w++) {
            uint64_t open = reach[w] & ~taken[w];
            if (open) {
                g = w * 64 + __builtin_ctzll(open);
                taken[w] |= open & -open;
            }
        }
        if (g >= 0) s->fg_owner[g] = b;
        else s->pending[left++] = b;
    }
    int result = 0;
    for (int k = 0; k < left && !result; k++) {
        memset(s->fg_seen, 0, (size_t)words * sizeof(uint64_t));
        if (!give_goal(s, s->pending[k])) result = 1;
    }
    for (int i = 0; i < s->stuck_count; i++) s->fg_frozen[s->stuck[i]] = 0;
    return result;
}

/* The box just pushed onto ``cell``: frozen together with a box off a goal? */
static int freeze_deadlock(Search *s, int cell) {
    int w = s->width;
    /* Free on both sides along an axis, one of them live: it can still move. */
    if (s->floor[cell - 1] && !s->occupant[cell - 1] && s->floor[cell + 1] && !s->occupant[cell + 1] &&
        (s->live[cell - 1] || s->live[cell + 1]))
        return 0;
    if (s->floor[cell - w] && !s->occupant[cell - w] && s->floor[cell + w] && !s->occupant[cell + w] &&
        (s->live[cell - w] || s->live[cell + w]))
        return 0;
    s->stuck_count = 0;
    s->stuck_overflow = 0;
    s->held[cell] = 1;
    int stuck = frozen(s, cell);
    s->held[cell] = 0;
    if (!stuck || s->stuck_overflow) return 0;
    for (int i = 0; i < s->stuck_count; i++)
        if (s->goal_of[s->stuck[i]] < 0) return 1;
    /* A corral search's boxes freeze on goals in ever new sets: the
     * frozen-goal test would redo its pulls for each (and forget the main
     * search's set). Without it the corral search only finds fewer deadlocks. */
    return s->corral_mode ? 0 : frozen_goals_deadlock(s);
}

/* --- corral deadlocks ------------------------------------------------------ */

/* Boxes and nodes a corral search may have: beyond them it gives up (no
 * verdict, so no pruning). */
#define CORRAL_BOXES 10
#define CORRAL_NODES 2048
#define CORRAL_TABLE (4 * CORRAL_NODES)
#define VERDICTS (1 << 18)
/* The stamps one corral search may take: a node and each of its children's at most. */
#define CORRAL_STAMPS (1 + (uint32_t)CORRAL_NODES * (1 + 4 * CORRAL_BOXES))
/* A box-set search's nodes, and how far (steps over the floor) from the
 * pushed box the boxes of its set may stand: the sets that prove deadlocks
 * are small and close, and a search of far-apart boxes seldom ends (no
 * verdict, all its cost lost). Radius 3 against 4, 20 s of CPU a level
 * (bench/sokoban_box_sets.py): 3 of the 34 unsolved classic levels solved
 * against 2, and 3-10% less CPU on the solved SokHard levels; 2 lost most of
 * what the sets gain (Grigr2001 15 unsolved, Holland 1 8.4 s against 5). */
#define SET_NODES 256
#define SET_RADIUS 3
enum { UNKNOWN = 0, DEADLOCK = 1, OPEN = 2 };

/* A small search's boxes in ascending order: its positions and verdicts are keyed so. */
static void sort_cells(uint16_t *cells, int k) {
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && cells[j] < cells[j - 1]; j--) {
            uint16_t swap = cells[j];
            cells[j] = cells[j - 1];
            cells[j - 1] = swap;
        }
}

static uint64_t corral_key(Search *s, const uint16_t *cells, int k, int player) {
    return player_mix(s, player) ^ (uint64_t)k * 0xA24BAED4963EE407ULL ^ boxes_hash_of(s, cells, k);
}

/* The node of the corral search with boxes ``cells`` and canonical
 * ``player``, stored if new; -1 when known, -2 when the search is full. */
static int corral_store(Search *s, const uint16_t *cells, int player, int *count) {
    int k = s->cs_boxes;
    uint64_t hash = corral_key(s, cells, k, player);
    size_t i = (size_t)(hash ^ (hash >> 31)) & (CORRAL_TABLE - 1);
    while (s->cs_table[i] >= 0) {
        int node = s->cs_table[i];
        const uint16_t *known = s->cs_nodes + (size_t)node * (CORRAL_BOXES + 1);
        if (s->cs_hashes[node] == hash && known[k] == player && memcmp(known, cells, (size_t)k * 2) == 0)
            return -1;
        i = (i + 1) & (CORRAL_TABLE - 1);
    }
    if (*count >= s->cs_limit) return -2;
    int node = (*count)++;
    uint16_t *record = s->cs_nodes + (size_t)node * (CORRAL_BOXES + 1);
    memcpy(record, cells, (size_t)k * 2);
    record[k] = (uint16_t)player;
    s->cs_hashes[node] = hash;
    s->cs_slot[node] = (int32_t)i;
    s->cs_table[i] = node;
    return node;
}

/* Whether the corral's boxes alone (s->cs_cells, sorted; every other box
 * taken off the board, the player in ``player``'s area) can never all reach
 * goals: then the position is lost, whatever the other boxes do, since
 * taking boxes away never makes a push impossible. The small search pushes
 * only these boxes, with the dead squares and the freeze test; it stops,
 * with no verdict, as soon as the player can stand on a free square of the
 * corral (s->cs_free: it has opened, and what follows is the main search's
 * business), when its boxes are all on goals, or when its nodes run out.
 * Only a search that has pushed its boxes every way they can go, none of it
 * a solution, is a deadlock. The verdicts are kept by the boxes and the
 * player's area; one hit by another corral's area could only miss a
 * deadlock, since a deadlock's verdict does not depend on the corral. */
static int corral_deadlock(Search *s, int player) {
    int k = s->cs_boxes, *saved = s->occupant;
    int *occupant = s->cs_occupant;
    int on_goals = 1;
    for (int i = 0; i < k; i++)
        if (s->goal_of[s->cs_cells[i]] < 0) on_goals = 0;
    if (on_goals) {
        /* Its boxes on goals and an empty goal inside: another box must
         * come in, which is for the main search to find. */
        return 0;
    }
    /* (cs_seen and cs_reach share cs_stamp, which a search below takes at
     * most once a node and once a child: cleared here, before any is live.) */
    if (make_room(&s->cs_stamp, s->cs_seen, (size_t)s->size, CORRAL_STAMPS))
        memset(s->cs_reach, 0, (size_t)s->size * sizeof(uint32_t));
    for (int i = 0; i < k; i++) occupy(s, occupant, s->cs_cells[i], i + 1);
    s->occupant = occupant;
    int canonical = flood(s, player, s->cs_seen, ++s->cs_stamp);
    uint64_t key = corral_key(s, s->cs_cells, k, canonical);
    size_t slot = (size_t)(key ^ (key >> 29)) & (VERDICTS - 1);
    for (int i = 0; i < k; i++) occupy(s, occupant, s->cs_cells[i], 0);
    if (s->verdict_key[slot] == key) {
        s->occupant = saved;
        return s->verdict[slot] == DEADLOCK;
    }
    s->corral_mode = 1;
    uint32_t inside = fresh_stamp(&s->cs_free_stamp, s->cs_free_mark, (size_t)s->size);
    for (int f = 0; f < s->cs_free_count; f++) s->cs_free_mark[s->cs_free[f]] = inside;
    int count = 0, result = DEADLOCK;
    corral_store(s, s->cs_cells, canonical, &count);
    uint16_t *cells = s->cs_child + CORRAL_BOXES + 1, *child = s->cs_child;
    for (int node = 0; node < count && result == DEADLOCK; node++) {
        memcpy(cells, s->cs_nodes + (size_t)node * (CORRAL_BOXES + 1), (size_t)(k + 1) * 2);
        for (int i = 0; i < k; i++) occupy(s, occupant, cells[i], i + 1);
        uint32_t stamp = ++s->cs_stamp;
        int node_low = flood(s, cells[k], s->cs_reach, stamp);
        for (int f = 0; f < s->cs_free_count; f++)
            if (s->cs_reach[s->cs_free[f]] == stamp) result = OPEN;
        for (int i = 0; i < k && result == DEADLOCK; i++) {
            int from = cells[i];
            for (int d = 0; d < 4 && result == DEADLOCK; d++) {
                int to = from + s->step[d];
                if (s->cs_reach[from - s->step[d]] != stamp || !s->floor[to] || occupant[to] || !s->live[to])
                    continue;
                occupy(s, occupant, from, 0);
                occupy(s, occupant, to, i + 1);
                if (!freeze_deadlock(s, to)) {
                    /* The child's boxes, sorted, and whether all are on goals. */
                    int c = 0, placed = 0, solved = s->goal_of[to] >= 0;
                    for (int j = 0; j < k; j++) {
                        if (j == i) continue;
                        if (!placed && to < cells[j]) {
                            child[c++] = (uint16_t)to;
                            placed = 1;
                        }
                        child[c++] = cells[j];
                        if (s->goal_of[cells[j]] < 0) solved = 0;
                    }
                    if (!placed) child[c] = (uint16_t)to;
                    if (solved) {
                        result = OPEN;
                    } else {
                        /* (The node's area holds no free square of the corral, or
                         * its children would not be made: the child's, if it is
                         * the node's and ``from``, holds one if ``from`` is one.) */
                        int low = child_low(s, s->cs_reach, stamp, node_low, from, to, from, cell_pieces(s, to));
                        if (low >= 0) {
                            if (s->cs_free_mark[from] == inside) result = OPEN;
                        } else {
                            uint32_t seen = ++s->cs_stamp;
                            low = flood(s, from, s->cs_seen, seen);
                            for (int f = 0; f < s->cs_free_count; f++)
                                if (s->cs_seen[s->cs_free[f]] == seen) result = OPEN;
                        }
                        if (result == DEADLOCK && corral_store(s, child, low, &count) == -2) result = UNKNOWN;
                    }
                }
                occupy(s, occupant, to, 0);
                occupy(s, occupant, from, i + 1);
            }
        }
        for (int i = 0; i < k; i++) occupy(s, occupant, cells[i], 0);
    }
    for (int node = 0; node < count; node++) s->cs_table[s->cs_slot[node]] = -1;
    s->corral_mode = 0;
    s->occupant = saved;
    s->verdict_key[slot] = key;
    s->verdict[slot] = (uint8_t)result;
    return result == DEADLOCK;
}

/* PI-corral pruning (deadlocks.py, pi_corral), on the expanded node's area.
 * Returns -1 when no corral restricts the pushes, 0 for a corral deadlock,
 * 1 when only the boxes marked in ``movable`` should be pushed. With
 * ``corrals`` 2, a PI-corral of a few boxes that holds the box just pushed
 * (``pushed``; an older one was judged at an earlier expansion) is searched
 * too, and one that search proves lost is a deadlock (corral_deadlock). */
static int pi_corral(Search *s, const uint16_t *cells, int player, int pushed) {
    /* (Its areas take a stamp each, at most one a square, all above ``base``.) */
    make_room(&s->area_stamp, s->area, (size_t)s->size, (uint32_t)s->size);
    uint32_t base = s->area_stamp;
    int best_pushes = INT32_MAX, found = -1;
    for (int b = 0; b < s->boxes; b++) {
        /* Areas start from free squares next to boxes: any corral has one or
         * is made of boxes alone, which needs no push of its own. */
        for (int d = 0; d < 4; d++) {
            int start = cells[b] + s->step[d];
            if (!s->floor[start] || s->occupant[start] || s->reached[start] == s->reach_stamp ||
                s->area[start] > base)
                continue;
            uint32_t id = ++s->area_stamp;
            int head = 0, tail = 0;
            s->area[start] = id;
            s->queue[tail++] = start;
            int needs = 0;
            while (head < tail) {
                int cell = s->queue[head++];
                int box = s->occupant[cell];
                /* (An empty goal needs a box only when every goal needs one:
                 * a probe's set of boxes may leave goals empty.) */
                if (box ? s->goal_of[cell] < 0 : s->goal_of[cell] >= 0 && s->boxes == s->goals) needs = 1;
                for (int k = 0; k < 4; k++) {
                    int next = cell + s->step[k];
                    if (s->floor[next] && s->reached[next] != s->reach_stamp && s->area[next] != id) {
                        s->area[next] = id;
                        s->queue[tail++] = next;
                    }
                }
            }
            if (!needs) continue;
            int k = 0, free_count = 0, fresh = 0;
            for (int q = 0; s->corrals > 1 && q < tail && k <= CORRAL_BOXES; q++) {
                int cell = s->queue[q];
                if (cell == pushed) fresh = 1;
                if (!s->occupant[cell]) s->cs_free[free_count++] = cell;
                else if (k++ < CORRAL_BOXES) s->cs_cells[k - 1] = (uint16_t)cell;
            }
            int inward = 1, pushes = 0;
            memset(s->fence, 0, (size_t)s->boxes);
            for (int q = 0; q < tail && inward; q++) {
                int cell = s->queue[q];
                int box = s->occupant[cell];
                if (!box) continue;
                for (int k = 0; k < 4 && inward; k++) {
                    int pusher = cell - s->step[k], ahead = cell + s->step[k];
                    if (!s->floor[pusher]) continue;
                    if (s->reached[pusher] != s->reach_stamp) {
                        /* A square he cannot stand on now: fine if it is inside
                         * this corral (it opens only when the corral changes);
                         * elsewhere a push from it may come later, so this is
                         * not a PI-corral. */
                        if (s->area[pusher] != id) inward = 0;
                        continue;
                    }
                    s->fence[box - 1] = 1;
                    if (!s->floor[ahead] || !s->live[ahead]) continue;
                    if (s->occupant[ahead]) {
                        /* Blocked by a box: one outside the corral may move away. */
                        if (s->area[ahead] != id) inward = 0;
                        continue;
                    }
                    if (s->area[ahead] == id) pushes++;
                    else inward = 0;
                }
            }
            if (inward && pushes < best_pushes) {
                best_pushes = pushes;
                found = pushes ? 1 : 0;
                memcpy(s->movable, s->fence, (size_t)s->boxes);
                if (!pushes) return 0;
            }
            if (s->corrals > 1 && inward && fresh && k <= CORRAL_BOXES && k > 0) {
                /* (the queue is free again: the corral's squares were copied) */
                sort_cells(s->cs_cells, k);
                s->cs_boxes = k;
                s->cs_free_count = free_count;
                s->cs_limit = CORRAL_NODES;
                if (corral_deadlock(s, player)) return 0;
            }
        }
    }
    return found;
}

/* --- box-set deadlocks ------------------------------------------------------ */

static void learn_pattern(Search *s, int player);

/* The boxes nearest ``pushed`` (steps over the floor, through boxes), at most
 * ``limit`` of them and none further than ``radius`` steps, in s->set_order,
 * nearest first; returns how many. */
static int nearest_boxes(Search *s, int pushed, int limit, int radius) {
    uint32_t stamp = fresh_stamp(&s->seen_stamp, s->seen, (size_t)s->size);
    int head = 0, tail = 0, found = 0, level_end = 1, steps = 0;
    s->seen[pushed] = stamp;
    s->queue[tail++] = pushed;
    while (head < tail && found < limit) {
        if (head == level_end) {
            if (++steps > radius) break;
            level_end = tail;
        }
        int cell = s->queue[head++];
        if (s->occupant[cell]) s->set_order[found++] = (uint16_t)cell;
        for (int d = 0; d < 4; d++) {
            int next = cell + s->step[d];
            if (s->floor[next] && s->seen[next] != stamp) {
                s->seen[next] = stamp;
                s->queue[tail++] = next;
            }
        }
    }
    return found;
}

/* Box-set deadlocks (after Junghanns and Schaeffer's pattern searches in
 * Rolling Stone, reduced to deadlocks): the box just pushed to ``pushed``
 * and the boxes nearest it (steps over the floor, through boxes) are
 * searched alone, every other box taken off the board, the player in his
 * area, with corral_deadlock's small search and no corral: if they can
 * never all stand on goals, no solution exists, since taking boxes away
 * never makes a push impossible. Sets of 2, 4, 8 boxes up to ``box_sets``
 * are tried in turn (each a bounded search; a larger set sees more, costs
 * more). Measured on ten unsolved classic levels (bench/sokoban_plateau.py):
 * 38-95% of the positions a greedy search expands there are already lost
 * (75% in all), the loss beginning 4-26 pushes earlier (medians), with
 * 5,000-80,000 positions below it searched in vain; no freeze or PI-corral
 * shows those. The sets catch the small losses near the push, not most. The verdicts are kept by the boxes and the player's area
 * (shared with the corral searches': a deadlock is one either way). */
static int box_set_deadlock(Search *s, int player, int pushed) {
    int limit = s->box_sets < CORRAL_BOXES ? s->box_sets : CORRAL_BOXES;
    if (limit > s->boxes) limit = s->boxes;
    int found = nearest_boxes(s, pushed, limit, SET_RADIUS);
    s->cs_free_count = 0;
    s->cs_limit = SET_NODES;
    for (int k = 2; k <= found; k = k * 2 > found && k < found ? found : k * 2) {
        memcpy(s->cs_cells, s->set_order, (size_t)k * sizeof(uint16_t));
        sort_cells(s->cs_cells, k);
        s->cs_boxes = k;
        s->set_tests++;
        if (corral_deadlock(s, player)) {
            s->set_deadlocks++;
            if (s->patterns) learn_pattern(s, player);
            return 1;
        }
    }
    return 0;
}

/* --- learned deadlock patterns --------------------------------------------- */

/* Learned deadlock patterns (after the deadlock tables YASS and Sokolution
 * fill as they search): a set of boxes found lost by box_set_deadlock's
 * small search is shrunk to a minimal set that is still lost, and kept; from then on any child position holding that set,
 * the player in the same area of the set's own board, is pruned at once
 * (pattern_deadlock), wherever the other boxes stand. Sound for the same
 * reason as the sets: the set alone cannot reach goals, and boxes added
 * never make a push possible. What a set's verdict cache cannot do: a
 * verdict is kept for one exact set of boxes (the pushed one and those
 * within 3 steps), so the same loss with one more box near it, or the
 * pushed box elsewhere, is searched again; a minimal pattern matches them
 * all, and prunes them as children, before they are stored. A few dozen
 * patterns a level do the work of tens of thousands of box-set deadlocks
 * (SokHard 81, 5 s of CPU: 20 patterns from 44 finds prune 161,000
 * children, where the sets alone found 44,700 deadlocks), so with patterns
 * the box sets are searched at every SET_EVERY-th expansion only: a loss
 * they would find recurs, and is learned then (expansions a second: 349,000
 * in 5 s with sets at every expansion, 387,000 at every 4th, 469,000
 * without sets). Probes of larger sets (up to 8 boxes within 6 steps, 2,048
 * positions, every 256-512 expansions) were tried and dropped: a probe took
 * 5-10 ms and few found a loss (Holland 8, 5 s: 184 probes, 15 more
 * patterns, no more children pruned, a third fewer expansions). Square 0 (always wall: levels are closed) as the player means "anywhere":
 * the set is lost in every area of its board. */
#define PATTERN_LIMIT (1 << 15)
#define SET_EVERY 4
#define PATTERN_KEYS (1 << 17)
/* The bytes a probe's search may hold (its first chunk of nodes and table). */
#define PROBE_BUDGET ((size_t)64 << 20)
#define AREAS_TRIED 4

/* Room in ``list`` for one more pattern; 0 when memory is short (the
 * pattern is then not kept: the search only prunes less). */
static int pattern_room(PatternList *list) {
    if (list->count < list->capacity) return 1;
    int32_t capacity = list->capacity ? list->capacity * 2 : 8;
    uint64_t *squares = realloc(list->squares, (size_t)capacity * sizeof(uint64_t));
    if (squares == NULL) return 0;
    list->squares = squares;
    uint32_t *offset = realloc(list->offset, (size_t)capacity * sizeof(uint32_t));
    if (offset == NULL) return 0;
    list->offset = offset;
    list->capacity = capacity;
    return 1;
}

/* Keep the pattern ``cells`` (sorted, ``k`` boxes), the player's canonical
 * square on their board (0: anywhere) and his area there (s->pattern_area),
 * unless it is known or the table full. */
static void pattern_store(Search *s, const uint16_t *cells, int k, int player) {
    if (s->pattern_count >= PATTERN_LIMIT || s->pattern_link_count + k > s->pattern_link_capacity ||
        s->pattern_length + (size_t)k + 2 + (size_t)s->area_words > s->pattern_data_capacity)
        return;
    for (int j = 0; j < k; j++)
        if (!pattern_room(&s->pattern_lists[cells[j]])) return;
    uint64_t key = corral_key(s, cells, k, player) | 1;
    size_t i = (size_t)(key ^ (key >> 31)) & (PATTERN_KEYS - 1);
    while (s->pattern_keys[i]) {
        if (s->pattern_keys[i] == key) return;
        i = (i + 1) & (PATTERN_KEYS - 1);
    }
    s->pattern_keys[i] = key;
    uint32_t offset = (uint32_t)s->pattern_length;
    uint16_t *record = s->pattern_data + offset;
    record[0] = (uint16_t)k;
    record[1] = (uint16_t)player;
    memcpy(record + 2, cells, (size_t)k * sizeof(uint16_t));
    s->pattern_length += (size_t)k + 2;
    if (player) {
        /* Whether a child's player stands in this area is then one bit, not a flood fill. */
        memcpy(record + 2 + k, s->pattern_area, (size_t)s->area_words * sizeof(uint16_t));
        s->pattern_length += (size_t)s->area_words;
    }
    uint64_t squares = 0;
    for (int j = 0; j < k; j++) squares |= square_bit(cells[j]);
    for (int j = 0; j < k; j++) {
        PatternList *list = &s->pattern_lists[cells[j]];
        list->squares[list->count] = squares;
        list->offset[list->count++] = offset;
    }
    s->pattern_link_count += k;
    s->pattern_count++;
}

/* s->cs_cells (cs_boxes of them, sorted), the player at ``player``, was just
 * proved lost by corral_deadlock (s->cs_limit and cs_free_count as it ran):
 * each box whose set without it is still lost is dropped in turn, and what
 * is left is kept as a pattern, for the player anywhere if every area of
 * its board is lost too (at most AREAS_TRIED areas), else for his area. */
static void learn_pattern(Search *s, int player) {
    uint16_t set[CORRAL_BOXES];
    int k = s->cs_boxes;
    memcpy(set, s->cs_cells, (size_t)k * sizeof(uint16_t));
    for (int drop = 0; drop < k && k > 1;) {
        int c = 0;
        for (int j = 0; j < k; j++)
            if (j != drop) s->cs_cells[c++] = set[j];
        s->cs_boxes = k - 1;
        if (corral_deadlock(s, player)) {
            memmove(set + drop, set + drop + 1, (size_t)(k - drop - 1) * sizeof(uint16_t));
            k--;
        } else {
            drop++;
        }
    }
    s->cs_boxes = k;
    memcpy(s->cs_cells, set, (size_t)k * sizeof(uint16_t));
    int *saved = s->occupant;
    for (int j = 0; j < k; j++) occupy(s, s->cs_occupant, set[j], 1);
    s->occupant = s->cs_occupant;
    uint32_t stamp = fresh_stamp(&s->pattern_stamp, s->pattern_marks, (size_t)s->size);
    int own = flood(s, player, s->pattern_marks, stamp);
    memset(s->pattern_area, 0, (size_t)s->area_words * sizeof(uint16_t));
    for (int f = 0; f < s->floor_count; f++) {
        int cell = s->floor_cells[f];
        if (s->pattern_marks[cell] == stamp) s->pattern_area[cell >> 4] |= (uint16_t)(1u << (cell & 15));
    }
    int areas[AREAS_TRIED], area_count = 0, everywhere = 1;
    for (int f = 0; f < s->floor_count && everywhere; f++) {
        int cell = s->floor_cells[f];
        if (s->occupant[cell] || s->pattern_marks[cell] == stamp) continue;
        if (area_count == AREAS_TRIED) everywhere = 0;
        else areas[area_count++] = flood(s, cell, s->pattern_marks, stamp);
    }
    for (int j = 0; j < k; j++) occupy(s, s->cs_occupant, set[j], 0);
    s->occupant = saved;
    for (int a = 0; a < area_count && everywhere; a++)
        if (!corral_deadlock(s, areas[a])) everywhere = 0;
    pattern_store(s, set, k, everywhere ? 0 : own);
}

/* Whether the position on the board now (s->occupant; its boxes folded in
 * ``boxes`` as square_bit does), the player at ``stand``, holds a learned
 * pattern with a box on ``cell``. */
static int pattern_deadlock(Search *s, int cell, int stand, uint64_t boxes) {
    const PatternList *list = &s->pattern_lists[cell];
    for (int32_t e = 0; e < list->count; e++) {
        if (list->squares[e] & ~boxes) continue;
        const uint16_t *record = s->pattern_data + list->offset[e];
        int k = record[0], all = 1;
        for (int j = 0; j < k && all; j++)
            if (!s->occupant[record[2 + j]]) all = 0;
        if (!all) continue;
        if (record[1] == 0 || (record[2 + k + (stand >> 4)] >> (stand & 15)) & 1) return 1;
    }
    return 0;
}

/* --- the matching bound --------------------------------------------------- */

static inline int64_t cost(Search *s, int row, int column) {
    uint16_t pushes = s->rows[row - 1][column - 1];
    return pushes == 65535 ? INF : pushes;
}

/* Rows are boxes, columns goals: a probe (board_probe) may have fewer boxes than goals.
 * One augmenting path from ``row`` (Hungarian method, shortest paths by
 * reduced cost). The prices of the columns reached are settled once, at the
 * end, from the distance at which each was reached, rather than after every
 * step: each step is then one pass over the columns instead of two, and the
 * matching bound of the levels with 30 boxes and more was a third of the
 * search's CPU. s->slack holds each column's distance plus the distance
 * already run when it was last lowered, so the columns never reached need
 * no update either; the paths and prices are the ones a step-by-step update
 * gives. */
static void augment(Search *s, int row, int64_t *row_price, int64_t *column_price, int *owner) {
    const int n = s->goals;
    const int64_t huge = (int64_t)INF * (n + 1);
    int64_t *restrict reach = s->slack, *restrict reached_at = s->reached_at;
    uint8_t *restrict used = s->used;
    int *restrict way = s->way, *restrict settled = s->settled;
    for (int j = 0; j <= n; j++) {
        reach[j] = huge;
        used[j] = 0;
        way[j] = 0;
    }
    owner[0] = row;
    int column = 0, count = 0;
    int64_t run = 0; /* the distance run so far */
    while (1) {
        used[column] = 1;
        reached_at[column] = run;
        settled[count++] = column;
        int current = owner[column];
        const uint16_t *costs = s->rows[current - 1];
        const int64_t base = run - row_price[current];
        int64_t best = huge + run;
        int nearest = 0;
        for (int j = 1; j <= n; j++) {
            if (used[j]) continue;
            int64_t pushes = costs[j - 1] == 65535 ? INF : costs[j - 1];
            int64_t through = pushes - column_price[j] + base;
            if (through < reach[j]) {
                reach[j] = through;
                way[j] = column;
            }
            if (reach[j] < best) {
                best = reach[j];
                nearest = j;
            }
        }
        run = best;
        column = nearest;
        if (owner[column] == 0) break;
    }
    for (int k = 0; k < count; k++) {
        int j = settled[k];
        int64_t delta = run - reached_at[j];
        row_price[owner[j]] += delta;
        column_price[j] -= delta;
    }
    while (column) {
        int previous = way[column];
        owner[column] = owner[previous];
        column = previous;
    }
}

static int64_t matching_total(Search *s, const int *owner) {
    int64_t total = 0;
    for (int j = 1; j <= s->goals; j++)
        if (owner[j]) total += cost(s, owner[j], j);
    return total;
}

/* s->max_empty: each goal room's deepest packing layer with an empty goal
 * on the board now (-1: the room is full). */
static void deepest_empty(Search *s) {
    for (int k = 0; k < s->groups; k++) s->max_empty[k] = -1;
    for (int g = 0; g < s->goals; g++) {
        int k = s->group[g];
        if (k >= 0 && !s->occupant[s->goal_cell[g]] && s->layer[g] > s->max_empty[k]) s->max_empty[k] = s->layer[g];
    }
}

static int room_blocked(Search *s, int k, uint64_t filled);
static uint64_t room_filled(Search *s, int k);

/* Whether goal ``g`` waits on another room that is not yet ready for it
 * (packing.py's rooms in order): a box on it is out of order. */
static inline int waits(Search *s, int g) {
    for (int c = s->after_start[g]; c < s->after_start[g + 1]; c++) {
        int least = s->wait_least[c], found = 0;
        for (int i = s->wait_start[c]; i < s->wait_start[c + 1] && found < least; i++)
            found += s->occupant[s->wait_cell[i]] != 0;
        if (found < least) return 1;
    }
    return 0;
}

/* Whether goal ``g``, if empty, may be filled now (after deepest_empty): it
 * waits on no room that is not ready for it (waits), and it is in no goal
 * room with a packing order, or in its room's deepest layer still empty. */
static inline int in_order(Search *s, int g) {
    if (s->afters && waits(s, g)) return 0;
    int k = s->group[g];
    if (k < 0) return 1;
    if (s->plans) {
        /* (With packing plans: filling it blocks no more of the room's goals.) */
        uint64_t filled = room_filled(s, k);
        return room_blocked(s, k, filled | 1ULL << s->room_place[g]) <= room_blocked(s, k, filled);
    }
    return s->layer[g] == s->max_empty[k];
}

/* Packing plans: which empty goals of a goal room can still be filled with
 * the room's other goals as they are now. The layers of packing.py are one
 * fixed order, peeled from every entrance at once; a room with several
 * entrances may be filled in many orders, and a box the layers call early
 * may shut out nothing (Grigr2001's "Original conversion" rooms: most of the
 * greedy search's positions there held empty goals that no order could
 * fill any more, but few boxes out of layer order). So the same peeling
 * runs on the position: the room full, the filled goals' boxes staying, the
 * others pulled off while the player, anywhere outside, can pull one a
 * square (the peel is monotone: the order does not matter). The empty goals
 * never peeled are blocked: a box must come off a goal before they can be
 * filled. Verdicts are kept by (room, goals filled): the rooms' fillings are
 * few beside the positions. */
static int plan_peel(Search *s, int k, uint64_t filled) {
    int first = s->room_start[k], count = s->room_start[k + 1] - first;
    for (int i = 0; i < count; i++) s->plan_block[s->goal_cell[s->room_goal[first + i]]] = 1;
    uint32_t stamp = fresh_stamp(&s->plan_stamp, s->plan_reach, (size_t)s->size);
    /* The player may start on any free square (as in packing.py). */
    for (int i = 0; i < s->floor_count; i++) {
        int cell = s->floor_cells[i];
        if (!s->plan_block[cell]) s->plan_reach[cell] = stamp;
    }
    uint64_t peeled = 0, empty = 0;
    for (int i = 0; i < count; i++)
        if (!((filled >> i) & 1)) empty |= 1ULL << i;
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < count; i++) {
            if (!((empty >> i) & 1) || ((peeled >> i) & 1)) continue;
            int cell = s->goal_cell[s->room_goal[first + i]];
            for (int d = 0; d < 4; d++) {
                int stand = cell + s->step[d], back = stand + s->step[d];
                if (s->plan_reach[stand] != stamp || !s->floor[back] || s->plan_block[back]) continue;
                /* Pulled off: its square opens to the player. */
                peeled |= 1ULL << i;
                s->plan_block[cell] = 0;
                int head = 0, tail = 0;
                s->plan_reach[cell] = stamp;
                s->queue[tail++] = cell;
                while (head < tail) {
                    int at = s->queue[head++];
                    for (int e = 0; e < 4; e++) {
                        int next = at + s->step[e];
                        if (s->floor[next] && !s->plan_block[next] && s->plan_reach[next] != stamp) {
                            s->plan_reach[next] = stamp;
                            s->queue[tail++] = next;
                        }
                    }
                }
                progress = 1;
                break;
            }
        }
    }
    for (int i = 0; i < count; i++) s->plan_block[s->goal_cell[s->room_goal[first + i]]] = 0;
    int blocked = 0;
    for (uint64_t rest = empty & ~peeled; rest; rest &= rest - 1) blocked++;
    return blocked;
}

/* The goals of room ``k`` holding boxes on the board now, by place in the room. */
static uint64_t room_filled(Search *s, int k) {
    uint64_t filled = 0;
    for (int i = s->room_start[k]; i < s->room_start[k + 1]; i++)
        if (s->occupant[s->goal_cell[s->room_goal[i]]]) filled |= 1ULL << (i - s->room_start[k]);
    return filled;
}

/* The slot of (room ``k``, ``filled``) in a verdict table of ``capacity``
 * slots (a power of two): its own, or the free one where it would go. */
static size_t plan_slot(const PlanEntry *table, size_t capacity, int k, uint64_t filled) {
    uint64_t hash = (filled ^ ((uint64_t)k << 56)) * 0x9E3779B97F4A7C15ULL;
    size_t slot = (size_t)(hash >> 20) & (capacity - 1);
    while (table[slot].room >= 0 && (table[slot].room != k || table[slot].filled != filled))
        slot = (slot + 1) & (capacity - 1);
    return slot;
}

/* plan_peel's verdict for room ``k`` filled so, kept in s->plan_table (wiped
 * when full: verdicts are only a saving). */
static int room_blocked(Search *s, int k, uint64_t filled) {
    size_t slot = plan_slot(s->plan_table, s->plan_capacity, k, filled);
    if (s->plan_table[slot].room >= 0) return s->plan_table[slot].blocked;
    int blocked = plan_peel(s, k, filled);
    if (2 * (s->plan_count + 1) > s->plan_capacity) {
        size_t capacity = s->plan_capacity * 2, grown = s->plan_capacity * sizeof(PlanEntry);
        PlanEntry *table = capacity <= PLAN_SLOTS_MAX && fits(s, grown)
                               ? malloc(capacity * sizeof(PlanEntry))
                               : NULL;
        if (table == NULL) {
            /* Start again in the same table. */
            for (size_t i = 0; i < s->plan_capacity; i++) s->plan_table[i].room = -1;
            s->plan_count = 0;
        } else {
            for (size_t i = 0; i < capacity; i++) table[i].room = -1;
            for (size_t i = 0; i < s->plan_capacity; i++) {
                PlanEntry entry = s->plan_table[i];
                if (entry.room >= 0) table[plan_slot(table, capacity, entry.room, entry.filled)] = entry;
            }
            free(s->plan_table);
            s->plan_table = table;
            s->plan_capacity = capacity;
            count_bytes(s, grown);
        }
        slot = plan_slot(s->plan_table, s->plan_capacity, k, filled);
    }
    s->plan_table[slot].room = k;
    s->plan_table[slot].filled = filled;
    s->plan_table[slot].blocked = blocked;
    s->plan_count++;
    return blocked;
}

/* The packing-order penalty of the position on the board now (packing.py),
 * or with packing plans the rooms' blocked goals. */
static int out_of_order(Search *s) {
    if (!s->groups && !s->afters) return 0;
    int count = 0;
    if (s->plans) {
        for (int k = 0; k < s->groups; k++) count += room_blocked(s, k, room_filled(s, k));
        for (int g = 0; s->afters && g < s->goals; g++)
            if (s->occupant[s->goal_cell[g]] && waits(s, g)) count++;
        return count;
    }
    deepest_empty(s);
    for (int g = 0; g < s->goals; g++) {
        if (!s->occupant[s->goal_cell[g]]) continue;
        int k = s->group[g];
        if ((k >= 0 && s->layer[g] < s->max_empty[k]) || (s->afters && waits(s, g))) count++;
    }
    return count;
}

/* Label the regions of free squares on the board now in ``labels``, each
 * flooded with a new id above *stamp (which it advances); returns how many. */
static int label_regions(Search *s, uint32_t *labels, uint32_t *stamp) {
    /* (A label a region, at most one a square, all above ``base``.) */
    make_room(stamp, labels, (size_t)s->size, (uint32_t)s->size);
    uint32_t base = *stamp;
    int regions = 0;
    for (int i = 0; i < s->floor_count; i++) {
        int cell = s->floor_cells[i];
        if (s->occupant[cell] || labels[cell] > base) continue;
        regions++;
        flood(s, cell, labels, ++*stamp);
    }
    return regions;
}

/* How many regions of free squares the board now has (label_regions' count,
 * without its labels: a child's feature cell needs no more). */
static int count_regions(Search *s) {
    if (!s->row_bits) return label_regions(s, s->area, &s->area_stamp);
    free_rows(s);
    int regions = 0;
    for (int y = 0; y < s->height; y++)
        while (s->fill_free[y]) {
            int top, bottom;
            fill_rows(s, y, s->fill_free[y] & -s->fill_free[y], &top, &bottom);
            for (int r = top; r <= bottom; r++) {
                s->fill_free[r] &= ~s->fill_reach[r];
                s->fill_reach[r] = 0;
            }
            regions++;
        }
    return regions;
}

/* The regions of free squares of the child on the board now (its box moved
 * from ``from`` to ``to``; ``pieces``: cell_pieces of ``to``) from the
 * expanded node's (s->region), without labelling the board again: ``from``
 * joins the regions around it into one, then ``to`` cuts its own into
 * ``pieces``. -1 where cell_pieces cannot tell (the caller labels afresh).
 * The whole board's labelling at every child was an eighth of the search's
 * time on the large levels. */
static int child_regions(Search *s, int from, int to, int pieces) {
    if (pieces < 0 || from == to) return -1;
    uint32_t joined[4];
    int k = 0;
    for (int d = 0; d < 4; d++) {
        int next = from + s->step[d];
        /* (``to`` was free in the expanded node: its region counts.) */
        if (!s->floor[next] || (next != to && s->occupant[next])) continue;
        uint32_t id = s->region[next];
        int known = 0;
        for (int j = 0; j < k; j++) known |= joined[j] == id;
        if (!known) joined[k++] = id;
    }
    return s->node_regions - k + pieces;
}

/* The boxes packed on the board now: on goals and not out of packing order
 * (``out_of_order_count`` of them are). */
static int packed_boxes(Search *s, int out_of_order_count) {
    int packed = -out_of_order_count;
    for (int g = 0; g < s->goals; g++)
        if (s->occupant[s->goal_cell[g]]) packed++;
    return packed < 0 ? 0 : packed;
}

/* The feature cell of the position on the board now (the expanded node's
 * child: its box moved from ``from`` to ``to``): boxes packed by the
 * regions of free squares (up to REGIONS - 1; all of them in ``*regions``). */
static int feature_cell(Search *s, int out_of_order_count, int from, int to, int pieces, int *regions) {
    *regions = child_regions(s, from, to, pieces);
    if (*regions < 0) *regions = count_regions(s);
    return packed_boxes(s, out_of_order_count) * REGIONS + (*regions < REGIONS ? *regions : REGIONS - 1);
}

/* keep_duals' slots at the least and at the most (see keep_duals_init), and
 * the largest price it keeps (in 32 bits). */
#define DUALS_SLOTS_MIN ((size_t)1 << 12)
#define DUALS_SLOTS_MAX ((size_t)1 << 16)
#define DUALS_PRICE_MAX ((int64_t)1 << 30)

/* The expanded node's best matching and its duals (s->owner, s->row_price,
 * s->column_price), which child_bound repairs for each child. Each box
 * starts on its nearest goal if no box before it took that goal, priced at
 * that distance (the duals are feasible: every goal's price is 0, every
 * box's its cheapest cost, and each box so placed is on a tight edge), and
 * only the boxes left over are augmented. Augmenting every box from nothing
 * was most of the bound's time on the large levels, where most boxes have
 * a nearest goal of their own. Any best matching serves: a child's bound is
 * its own best matching, whichever the repair starts from (as many boxes as
 * goals: see child_bound). */
static void node_duals(Search *s) {
    int n = s->boxes, m = s->goals, left = 0;
    if (s->duals_cache != NULL) {
        const int32_t *slot = s->duals_cache + ((size_t)s->expanding & (s->duals_slots - 1)) * s->duals_stride;
        if (slot[0] == s->expanding) {
            const int32_t *owner = slot + 1, *column_price = owner + m + 1, *row_price = column_price + m + 1;
            int matched = 0;
            for (int j = 0; j <= m; j++) {
                s->owner[j] = owner[j];
                s->column_price[j] = column_price[j];
                s->row_price[j] = row_price[j];
            }
            /* (A check that costs little beside a matching: every box matched
             * once, each on a tight edge, as the repair needs. s->way is
             * augment's scratch.) */
            for (int i = 0; i <= n; i++) s->way[i] = 0;
            for (int j = 1; j <= m; j++) {
                int i = owner[j];
                if (i > 0 && i <= n && !s->way[i]++ && row_price[i] + column_price[j] == cost(s, i, j)) matched++;
            }
            if (matched == n) {
                s->duals_total = matching_total(s, s->owner);
                s->duals_ready = 1;
                return;
            }
        }
    }
    for (int j = 0; j <= m; j++) {
        s->row_price[j] = 0;
        s->column_price[j] = 0;
        s->owner[j] = 0;
    }
    int finite = 1;
    for (int i = 0; i < n; i++)
        if (s->nearest[s->cells[i]] >= INF) finite = 0;
    for (int i = 1; i <= n; i++) {
        int at = s->cells[i - 1], goal = s->nearest_goal[at] + 1;
        if (finite && s->owner[goal]) {
            /* Another goal just as near and still free is as good. */
            const uint16_t *row = s->rows[i - 1];
            for (int j = 1; j <= m; j++)
                if (!s->owner[j] && row[j - 1] == s->nearest[at]) {
                    goal = j;
                    break;
                }
        }
        if (finite && !s->owner[goal]) {
            s->owner[goal] = i;
            s->row_price[i] = s->nearest[at];
        } else {
            s->pending[left++] = i;
        }
    }
    for (int k = 0; k < left; k++) augment(s, s->pending[k], s->row_price, s->column_price, s->owner);
    s->duals_total = matching_total(s, s->owner);
    s->duals_ready = 1;
}

/* Keep the best matching and duals child_bound found for a child (s->owner2
 * and the prices2, in the rows of the expanded node, box ``changed`` moved)
 * for the child stored as ``node``, in the rows of its own sorted boxes (box
 * ``changed`` is its row ``row_of``). When the child is expanded, node_duals
 * takes them instead of matching its boxes again: in a greedy search most
 * nodes expanded were made a few thousand nodes before, and the matching of
 * each expanded node was the largest part of the bound's time left. A slot
 * a node number (s->duals_slots of them, the newest node in each). */
static void keep_duals(Search *s, int64_t node, int changed, int row_of) {
    if (s->duals_cache == NULL || !s->child_duals) return;
    int m = s->goals;
    for (int j = 0; j <= m; j++)
        if (s->row_price2[j] < -DUALS_PRICE_MAX || s->row_price2[j] > DUALS_PRICE_MAX ||
            s->column_price2[j] < -DUALS_PRICE_MAX || s->column_price2[j] > DUALS_PRICE_MAX)
            return;
    int32_t *slot = s->duals_cache + ((size_t)node & (s->duals_slots - 1)) * s->duals_stride;
    int32_t *owner = slot + 1, *column_price = owner + m + 1, *row_price = column_price + m + 1;
    slot[0] = (int32_t)node; /* (node numbers stay below INT32_MAX: see add) */
    owner[0] = 0;
    row_price[0] = 0;
    column_price[0] = (int32_t)s->column_price2[0];
    for (int j = 1; j <= m; j++) {
        column_price[j] = (int32_t)s->column_price2[j];
        row_price[j] = 0;
    }
    for (int j = 1; j <= m; j++) {
        int parent_row = s->owner2[j];
        if (!parent_row) {
            owner[j] = 0;
            continue;
        }
        int p = parent_row - 1, row;
        if (p == changed) {
            row = row_of;
        } else {
            row = p - (p > changed);
            row += row >= row_of;
        }
        owner[j] = row + 1;
        row_price[row + 1] = (int32_t)s->row_price2[parent_row];
    }
}

/* keep_duals' slots for a search (not the prober, whose node numbers start
 * again at each probe): as many as take no more than a sixteenth of its
 * memory budget, up to DUALS_SLOTS_MAX, or none below DUALS_SLOTS_MIN (a
 * shortcut, which a search does without rather than keep fewer positions).
 * With feature cells taken in turn a node waits long to be expanded: with
 * 4,096 slots a third of the nodes expanded on Grigr2001 78 and 40% on
 * Holland 73 (36 and 57 boxes) had lost theirs and were matched afresh, with
 * 65,536 15% and 11%; the matching was a quarter of their CPU. */
static void keep_duals_init(Search *s) {
    s->duals_stride = 1 + 3 * ((size_t)s->goals + 1);
    size_t slot_bytes = s->duals_stride * sizeof(int32_t);
    s->duals_slots = DUALS_SLOTS_MAX;
    while (s->duals_slots > DUALS_SLOTS_MIN && s->duals_slots * slot_bytes > s->budget / 16) s->duals_slots /= 2;
    if (s->duals_slots * slot_bytes > s->budget / 16) return;
    s->duals_cache = counted_alloc(s, s->duals_slots * slot_bytes);
    if (s->duals_cache == NULL) return;
    for (size_t k = 0; k < s->duals_slots; k++) s->duals_cache[k * s->duals_stride] = -1;
}

/* The bound of the expanded node with box ``changed`` (row, 0-based) moved to
 * ``cell``; INF or more is a deadlock. s->rows holds the node's rows. After
 * it, s->child_duals says whether the child's best matching and duals are in
 * s->owner2 and the prices2 (see keep_duals). */
static int64_t child_bound(Search *s, int changed, int cell) {
    int n = s->boxes, m = s->goals;
    const uint16_t *saved = s->rows[changed];
    s->rows[changed] = s->dist + (size_t)cell * s->goals;
    s->child_duals = 0;
    /* The nearest goals, if all different, are the best matching. */
    fresh_stamp(&s->taken_stamp, s->goal_taken, (size_t)s->goals);
    int64_t total = 0;
    int clash = 0;
    for (int i = 0; i < n; i++) {
        int at = s->child_cells[i];
        int best = s->nearest[at];
        if (best >= INF) {
            s->rows[changed] = saved;
            return INF;
        }
        total += best;
        int goal = s->nearest_goal[at];
        if (s->goal_taken[goal] == s->taken_stamp) clash = 1;
        s->goal_taken[goal] = s->taken_stamp;
    }
    if (!clash) {
        s->rows[changed] = saved;
        return total;
    }
    if (!s->duals_ready && n == m) {
        s->rows[changed] = saved;
        node_duals(s);
        s->rows[changed] = s->dist + (size_t)cell * s->goals;
    }
    int64_t result;
    if (n < m || s->duals_total >= INF) {
        /* The parent has no finite matching to repair, or fewer boxes than
         * goals (a probe's box set): one augmenting path from the changed
         * box is exact only where every goal is matched, since a goal it
         * frees keeps its price. Solve afresh. */
        for (int j = 0; j <= m; j++) {
            s->row_price2[j] = 0;
            s->column_price2[j] = 0;
            s->owner2[j] = 0;
        }
        for (int i = 1; i <= n; i++) augment(s, i, s->row_price2, s->column_price2, s->owner2);
        result = matching_total(s, s->owner2);
    } else {
        /* One row changed: one augmenting path repairs the matching. */
        int row = changed + 1, column = 0;
        memcpy(s->row_price2, s->row_price, (size_t)(m + 1) * sizeof(int64_t));
        memcpy(s->column_price2, s->column_price, (size_t)(m + 1) * sizeof(int64_t));
        memcpy(s->owner2, s->owner, (size_t)(m + 1) * sizeof(int));
        for (int j = 1; j <= m; j++)
            if (s->owner2[j] == row) column = j;
        int64_t cheapest = INT64_MAX;
        for (int j = 1; j <= m; j++) {
            int64_t c = cost(s, row, j) - s->column_price2[j];
            if (c < cheapest) cheapest = c;
        }
        s->row_price2[row] = cheapest;
        if (cost(s, row, column) - s->column_price2[column] == cheapest && cost(s, row, column) < INF) {
            result = matching_total(s, s->owner2);
        } else {
            s->owner2[column] = 0;
            augment(s, row, s->row_price2, s->column_price2, s->owner2);
            result = matching_total(s, s->owner2);
        }
    }
    s->rows[changed] = saved;
    s->child_duals = result < INF;
    return result < INF ? result : INF;
}

/* --- the search ----------------------------------------------------------- */

/* The child's sorted box list: ``cells`` with entry ``index`` moved to ``to``. */
static void moved_cells(Search *s, const uint16_t *cells, int index, int to, uint16_t *out, int *row_of) {
    int n = s->boxes, k = 0, placed = 0;
    for (int i = 0; i < n; i++) {
        if (i == index) continue;
        if (!placed && to < cells[i]) {
            out[k] = (uint16_t)to;
            *row_of = k++;
            placed = 1;
        }
        out[k++] = cells[i];
    }
    if (!placed) {
        out[k] = (uint16_t)to;
        *row_of = k;
    }
}

/* INCOMPLETE: out of positions, but macros skipped some (no proof). */
typedef enum { RUNNING, FOUND, MET, EXHAUSTED, INCOMPLETE, OUT_OF_MEMORY, ERROR } Outcome;

/* A stored move: the box's square before it (<< 2) and the direction, and
 * above MOVE_SHIFT how many pushes the move makes in that direction less one
 * (a tunnel macro's; 0 for a single push). MACRO above MOVE_SHIFT marks a
 * goal-room macro instead, whose record in s->macros starts at the offset
 * below MOVE_SHIFT. */
#define MOVE_SHIFT 24
#define MACRO 0xFFu
#define MACRO_LIMIT (1u << MOVE_SHIFT)

/* A box move (see box_moves): its last square and direction below
 * MOVE_SHIFT; its pushes are found again from the parent (box_move_path). */
#define BOX_MOVE 0xFEu

static inline int is_macro(uint32_t move) { return (move >> MOVE_SHIFT) == MACRO; }
static inline int is_box_move(uint32_t move) { return (move >> MOVE_SHIFT) == BOX_MOVE; }
static inline int move_from(uint32_t move) { return (int)((move >> 2) & ((1u << (MOVE_SHIFT - 2)) - 1)); }
static inline int move_pushes(uint32_t move) { return (int)(move >> MOVE_SHIFT) + 1; }
static inline const uint32_t *macro_record(Search *s, uint32_t move) {
    return s->macros + (move & (MACRO_LIMIT - 1));
}

/* The square the move leaves its box on. */
static inline int move_to(Search *s, uint32_t move) {
    if (is_macro(move)) {
        const uint32_t *record = macro_record(s, move);
        uint32_t last = record[record[0]];
        return (int)(last >> 2) + s->step[last & 3];
    }
    if (is_box_move(move)) return move_from(move);
    return move_from(move) + move_pushes(move) * s->step[move & 3];
}

/* A one-wide corridor along direction ``d`` at ``cell``: walls on both sides across it. */
static inline int corridor(Search *s, int cell, int d) {
    return !s->floor[cell + s->step[(d + 1) & 3]] && !s->floor[cell + s->step[(d + 3) & 3]];
}

/* Tunnel macros (Junghanns and Schaeffer's, in Rolling Stone): a box just
 * pushed from ``from`` to ``to`` along ``d`` into a corridor, with the player
 * behind it in the corridor too, blocks the corridor until it is pushed on;
 * so it is pushed on at once, in the same move, while the corridor lasts and
 * the next square is free and not dead, stopping on a goal. Where the box
 * comes to rest is returned (``to`` when there is nothing to add), its pushes
 * in ``*pushes``. A shortcut that can skip a position a solution needs (a
 * box parked in a corridor on purpose), so only the greedy searches take it:
 * A*'s proofs of optimality stay as they were. */
static int tunnel_end(Search *s, int from, int to, int d, int *pushes) {
    int step = s->step[d];
    *pushes = 1;
    /* (At most MACRO - 1 pushes, so that the count fits beside the square.) */
    while (*pushes < (int)MACRO - 1 && s->goal_of[to] < 0 && corridor(s, from, d) && corridor(s, to, d)) {
        int next = to + step;
        if (!s->floor[next] || s->occupant[next] || !s->live[next]) break;
        from = to;
        to = next;
        ++*pushes;
    }
    return to;
}

/* Room in s->macros for a record of ``count`` pushes; its offset, or -1. */
static int64_t macro_room(Search *s, size_t count) {
    size_t offset = s->macro_length;
    if (offset + count + 1 >= MACRO_LIMIT) return -1;
    if (offset + count + 1 > s->macro_capacity) {
        size_t capacity = s->macro_capacity ? s->macro_capacity * 2 : 4096;
        while (capacity < offset + count + 1) capacity *= 2;
        size_t grown = (capacity - s->macro_capacity) * sizeof(uint32_t);
        if (!fits(s, grown)) return -1;
        uint32_t *macros = realloc(s->macros, capacity * sizeof(uint32_t));
        if (macros == NULL) return -1;
        count_bytes(s, grown);
        s->macros = macros;
        s->macro_capacity = capacity;
    }
    return (int64_t)offset;
}

/* Goal-room macros (after Junghanns and Schaeffer's goal macros, in Rolling
 * Stone): a box pushed into a goal room with a packing order (a group of
 * packing.py: side-by-side goals that must be filled deepest first) may be
 * pushed on at once, in the same move, to the deepest goal of the room still
 * empty, along the fewest pushes that keep it on the room's goals. Unlike
 * Rolling Stone's, the macro is made beside the push, not instead of it:
 * these rooms are not closed (on Microban, macros instead of the pushes lost
 * the way on five levels). The box was pushed from ``from`` to ``to`` along
 * ``d`` in ``pushes`` pushes (a tunnel macro's included), and s->occupant
 * still has it on ``from``. Returns the offset of
 * the macro's record in s->macros, its last square in ``*end`` and its pushes
 * in ``*pushes``; -1 when there is nothing to add (not a room with an order,
 * the box already inside or on a goal it may fill now, no way to the goal,
 * or no room left for records). Greedy searches only: the macro skips the
 * positions between, which a proof of optimality would need. */
static int64_t goal_macro(Search *s, int from, int to, int d, int *pushes, int *end) {
    int g = s->goal_of[to];
    if (g < 0 || s->group[g] < 0) return -1;
    int room = s->group[g];
    if (s->goal_of[from] >= 0 && s->group[s->goal_of[from]] == room) return -1;
    int deepest = -1;
    if (s->plans) {
        if (in_order(s, g)) return -1;
    } else {
        for (int h = 0; h < s->goals; h++)
            if (s->group[h] == room && (h == g || !s->occupant[s->goal_cell[h]]) && s->layer[h] > deepest)
                deepest = s->layer[h];
        if (s->layer[g] >= deepest) return -1;
    }
    /* Breadth first over (square, last push's direction), the player's area
     * flooded afresh at each: the first deepest goal reached has the fewest pushes. */
    int box = s->occupant[from];
    occupy(s, s->occupant, from, 0);
    uint32_t visit = fresh_stamp(&s->mq_stamp, s->mq_visit, (size_t)s->size * 4);
    int head = 0, tail = 0, goal_state = -1;
    s->mq_visit[to * 4 + d] = visit;
    s->mq_parent[to * 4 + d] = -1;
    s->mq_state[tail++] = to * 4 + d;
    while (head < tail && goal_state < 0) {
        int state = s->mq_state[head++];
        int cell = state >> 2;
        occupy(s, s->occupant, cell, box);
        flood(s, cell - s->step[state & 3], s->mq_reach,
              fresh_stamp(&s->mq_reach_stamp, s->mq_reach, (size_t)s->size));
        occupy(s, s->occupant, cell, 0);
        for (int e = 0; e < 4; e++) {
            int next = cell + s->step[e];
            int h = s->goal_of[next];
            if (h < 0 || s->group[h] != room || s->occupant[next] || s->mq_visit[next * 4 + e] == visit) continue;
            if (s->mq_reach[cell - s->step[e]] != s->mq_reach_stamp) continue;
            s->mq_visit[next * 4 + e] = visit;
            s->mq_parent[next * 4 + e] = state;
            s->mq_state[tail++] = next * 4 + e;
            if (s->plans ? in_order(s, h) : s->layer[h] == deepest) {
                goal_state = next * 4 + e;
                break;
            }
        }
    }
    occupy(s, s->occupant, from, box);
    if (goal_state < 0) return -1;
    int path = 0;
    for (int state = goal_state; s->mq_parent[state] >= 0; state = s->mq_parent[state]) path++;
    size_t count = (size_t)*pushes + (size_t)path;
    int64_t offset = macro_room(s, count);
    if (offset < 0) return -1;
    uint32_t *record = s->macros + offset;
    record[0] = (uint32_t)count;
    for (int j = 0; j < *pushes; j++) record[1 + j] = ((uint32_t)(from + j * s->step[d]) << 2) | (uint32_t)d;
    int k = (int)count;
    for (int state = goal_state; s->mq_parent[state] >= 0; state = s->mq_parent[state]) {
        int e = state & 3;
        record[k--] = ((uint32_t)((state >> 2) - s->step[e]) << 2) | (uint32_t)e;
    }
    s->macro_length = (size_t)offset + count + 1;
    *pushes = (int)count;
    *end = goal_state >> 2;
    return offset;
}

/* The block of novelty's atoms for ``bound`` (see novel), grown (by
 * doubling) while the budget allows. Where it does not, a higher bound
 * shares the last block there is (novelty is only an order), and with no
 * block at all there is none (NULL). */
static uint64_t *novel_block(Search *s, size_t bound) {
    size_t block = 2 * (size_t)s->novel_words;
    if (bound >= s->novel_bounds) {
        size_t bounds = s->novel_bounds ? s->novel_bounds : 256;
        while (bounds <= bound) bounds *= 2;
        size_t grown = (bounds - s->novel_bounds) * block * sizeof(uint64_t);
        uint64_t *bits = fits(s, grown) ? realloc(s->novel_bits, bounds * block * sizeof(uint64_t)) : NULL;
        if (bits == NULL) return s->novel_bits == NULL ? NULL : s->novel_bits + (s->novel_bounds - 1) * block;
        memset(bits + s->novel_bounds * block, 0, grown);
        count_bytes(s, grown);
        s->novel_bits = bits;
        s->novel_bounds = bounds;
    }
    return s->novel_bits + bound * block;
}

/* Whether ``cell``'s bit in ``bits`` was clear; it is set. */
static inline int novel_mark(uint64_t *bits, int cell) {
    uint64_t bit = 1ULL << (cell & 63);
    uint64_t *word = bits + (cell >> 6);
    int fresh = !(*word & bit);
    *word |= bit;
    return fresh;
}

/* Novelty (greedy searches only; after best-first width search, Lipovetzky
 * and Geffner 2017): a child is novel when one of its atoms -- a box on a
 * square, the player's area -- was in no child generated before it with the
 * same bound, and novel children go first in their open list. On a plateau
 * of the bound the greedy order keeps shuffling the same few boxes; this
 * takes first the children that put some box where none stood at that
 * bound before. Alone at 10 s of CPU a level it solved 292 of the 344
 * classic levels against 297 without, but on the 47 the search without it
 * left, 11 at 15 s (with any of the portfolio's penalties), and Holland 25
 * and 62 and Grigr2001 19, which no search had solved (docs/benchmarks.md,
 * "Novelty"; not reproduced on the committed code the next day, 4 at 15 s
 * for penalties 1 and 3 together: see "the spread between days" there).
 * Partitions by boxes packed and bound, or by boxes packed alone, solved
 * fewer there. */
static int novel(Search *s, const uint16_t *child, int child_player, int64_t bound) {
    /* (A bound past NOVELTY_BOUNDS, which no real bound comes near, shares
     * the last block; one below 0, which search refuses to make, the first.) */
    int64_t kept = bound < 0 ? 0 : bound < NOVELTY_BOUNDS ? bound : NOVELTY_BOUNDS - 1;
    uint64_t *bits = novel_block(s, (size_t)kept);
    if (bits == NULL) return 0;
    int fresh = 0;
    for (int k = 0; k < s->boxes; k++) fresh |= novel_mark(bits, child[k]);
    fresh |= novel_mark(bits + s->novel_words, child_player);
    return fresh;
}

/* One child of the node being expanded (its boxes in s->cells, on the board
 * in s->occupant): box ``i`` moved from ``from`` to ``to`` in ``pushes``
 * pushes by ``move``, the player left next to it on ``stand``. Unless the
 * child is lost, or known (and, for A*, no shorter now), it is stored and
 * queued. A macro's record (``macro``: from ``macro_mark`` on in s->macros)
 * is dropped again when the child is not kept. ``area_low``: the lowest
 * square of the child's player area where the caller has it already
 * (box_moves), else -1; ``pieces``: cell_pieces of ``to`` where the caller
 * knows it (box_moves), else PIECES_UNKNOWN. */
#define PIECES_UNKNOWN (-2)

/* A child's priority in its open list from its order (see add_child): one
 * that is not novel goes a novelty step later. (The order is kept below the
 * novelty step: a real bound is a few thousand at most.) */
static inline int32_t open_priority(int64_t order, int fresh) {
    if (order >= NOVELTY_STEP) order = NOVELTY_STEP - 1;
    return (int32_t)order + (fresh ? 0 : NOVELTY_STEP);
}

static int endgame_finish(Search *s, const uint16_t *cells, int player);
static Outcome add_child(Search *s, Search *other, int64_t node, int g, uint64_t boxes_hash, int i, int from, int to,
                         int stand, int pushes, uint32_t move, int macro, size_t macro_mark, int area_low,
                         int pieces, int64_t *found, int64_t *met) {
    int n = s->boxes;
    uint16_t *cells = s->cells;
    uint16_t *child = s->child_cells;
    uint64_t child_boxes = boxes_hash ^ s->zobrist[from] ^ s->zobrist[to];
    __builtin_prefetch(&s->table[box_slot(child_boxes, s->table_capacity - 1)]);
    if (other != NULL) __builtin_prefetch(&other->table[box_slot(child_boxes, other->table_capacity - 1)]);
    occupy(s, s->occupant, from, 0);
    occupy(s, s->occupant, to, i + 1);
    int lost = !s->backward && freeze_deadlock(s, to);
    if (!lost && s->pattern_count &&
        pattern_deadlock(s, to, stand, s->box_bits[i] | s->box_bits[n + 1 + i] | square_bit(to))) {
        /* (A pattern is learned in the forward search only: the pulls have none.) */
        lost = 1;
        s->pattern_prunes++;
    }
    if (lost) {
        occupy(s, s->occupant, to, 0);
        occupy(s, s->occupant, from, i + 1);
        if (macro) s->macro_length = macro_mark;
        return RUNNING;
    }
    int row_of;
    moved_cells(s, cells, i, to, child, &row_of);
    if (pieces == PIECES_UNKNOWN) pieces = cell_pieces(s, to);
    int child_player = area_low >= 0 ? area_low
                       : child_low(s, s->reached, s->reach_stamp, s->reached_low, from, to, stand, pieces);
    if (child_player < 0)
        child_player = flood(s, stand, s->seen, fresh_stamp(&s->seen_stamp, s->seen, (size_t)s->size));
    pack_boxes(s, child, s->key);
    int64_t known = find(s, child_boxes, child_player, s->key);
    int child_g = g + pushes;
    int skip = 0;
    if (known >= 0) {
        Head *kh = node_head(s, known);
        if (!s->weight || child_g >= kh->g) skip = 1;
    }
    int64_t bound = 0, raw_bound = 0;
    int cell = 0, fresh = 1, cost = 0, regions = 0;
    if (!skip) {
        bound = raw_bound = child_bound(s, i, to);
        if (bound >= INF) {
            skip = 1;
        } else {
            int disorder = s->packing || s->features ? out_of_order(s) : 0;
            bound += (int64_t)s->packing * disorder;
            if (s->features) cell = feature_cell(s, disorder, from, to, pieces, &regions);
            if (s->box_moves > 1 && s->features) {
                /* FESS's move weights: a move that packs a box or joins
                 * free regions is free, any other costs one; with its
                 * explorer (box_moves 3), one that lets the player reach
                 * more squares is free too. Breaking a barrier of boxes
                 * often joins a region and cuts off another, the regions
                 * staying as many while the player's area grows (Perfect
                 * 11: 17 squares, 37, then 119, over its first 19 pushes;
                 * docs/benchmarks.md, session 60). With ``advisors`` only
                 * each advisor's best child is free: the child waits for
                 * its weight until the node's children are all made
                 * (queue_advised). With ``dual`` as well, this weight
                 * orders the first lane and the advisors' the second. */
                int advised = (!s->advisors || s->dual) &&
                              (cell / REGIONS > s->node_packed || regions < s->node_regions ||
                               (s->box_moves == 3 && s->child_area > s->node_area));
                cost = node_head(s, node)->cost + !advised;
                if (cost > UINT8_MAX) cost = UINT8_MAX;
            }
            if (s->novelty) fresh = novel(s, child, child_player, bound);
        }
    }
    int solved = !skip && !s->backward && bound == 0;
    occupy(s, s->occupant, to, 0);
    occupy(s, s->occupant, from, i + 1);
    if (skip) {
        if (macro) s->macro_length = macro_mark;
        return RUNNING;
    }
    int64_t target;
    if (known >= 0) {
        /* A shorter way to a known position (A* only): reopen it. */
        Head *kh = node_head(s, known);
        kh->parent = (int32_t)node;
        kh->move = move;
        kh->g = child_g;
        kh->closed = 0;
        target = known;
    } else {
        target = add(s, child_boxes, child_player, s->key, node, move, child_g);
        if (target < 0) return OUT_OF_MEMORY;
        node_head(s, target)->cost = (uint8_t)cost;
        keep_duals(s, target, i, row_of);
        s->generated++;
    }
    if (!s->weight && solved) {
        *found = target;
        return FOUND;
    }
    /* A new child a few pushes from the end (by its bound) that the prober
     * finishes ends the search. (endgame_pushes is set only where there is a
     * prober: on the forward greedy search.) */
    if (raw_bound > 0 && raw_bound <= s->endgame_pushes && s->endgame_spent * ENDGAME_SHARE <= s->expanded &&
        endgame_finish(s, child, child_player)) {
        *found = target;
        return FOUND;
    }
    if (other != NULL) {
        int64_t meeting = find(other, child_boxes, child_player, s->key);
        if (meeting >= 0) {
            *found = target;
            *met = meeting;
            return MET;
        }
    }
    if (s->advisors && s->box_moves > 1 && s->features) {
        if (s->deferred_count == s->deferred_capacity) {
            size_t capacity = s->deferred_capacity ? s->deferred_capacity * 2 : 256;
            Deferred *grown = realloc(s->deferred, capacity * sizeof(Deferred));
            if (grown == NULL) return OUT_OF_MEMORY;
            s->deferred = grown;
            s->deferred_capacity = capacity;
        }
        Deferred *d = &s->deferred[s->deferred_count++];
        d->target = target;
        d->bound = bound;
        d->cell = cell;
        d->child_g = child_g;
        d->fresh = fresh;
        d->regions = regions;
        d->area = s->child_area;
        return RUNNING;
    }
    int64_t order = s->box_moves > 1 && s->features ? (int64_t)cost * FESS_WEIGHT + bound
                    : s->weight ? s->weight * child_g + bound : s->weighted ? child_g + s->weighted * bound : bound;
    if (!heap_push(s, cell, open_priority(order, fresh), -child_g, target)) return OUT_OF_MEMORY;
    return RUNNING;
}

/* The breadth-first searches of one box's pushes (box_macro, box_moves,
 * box_move_path) go by states, square * 4 + the direction of the push that
 * brought the box there (s->mq_state, their parents in s->mq_parent, marked
 * with ``visit`` in s->mq_visit), the box off the board but where the state
 * puts it. Each push of the box on ``cell`` by the player standing on a
 * square ``marks`` holds with ``stamp``, onto a free square not yet visited
 * (and live, if ``live``), is queued from ``tail`` with parent ``parent``;
 * returns the new tail. */
static int queue_pushes(Search *s, int cell, const uint32_t *marks, uint32_t stamp, uint32_t visit, int live,
                        int parent, int tail) {
    for (int e = 0; e < 4; e++) {
        int next = cell + s->step[e];
        if (!s->floor[next] || s->occupant[next] || (live && !s->live[next]) || s->mq_visit[next * 4 + e] == visit)
            continue;
        if (marks[cell - s->step[e]] != stamp) continue;
        s->mq_visit[next * 4 + e] = visit;
        s->mq_parent[next * 4 + e] = parent;
        s->mq_state[tail++] = next * 4 + e;
    }
    return tail;
}

/* The player's area behind box ``box`` at ``state`` (in s->mq_reach, with
 * s->mq_reach_stamp): where he may stand for its next push. */
static int area_behind(Search *s, int state, int box) {
    int cell = state >> 2;
    occupy(s, s->occupant, cell, box);
    int low = flood(s, cell - s->step[state & 3], s->mq_reach,
                    fresh_stamp(&s->mq_reach_stamp, s->mq_reach, (size_t)s->size));
    occupy(s, s->occupant, cell, 0);
    return low;
}

/* Box-to-goal macros (after the macro moves of FESS, Shoham and Schaeffer
 * 2020, which move one box as far as it goes): the box on ``from``, every
 * other box standing still, pushed the fewest pushes to the nearest goal it
 * may fill now: an empty goal outside the goal rooms with a packing order,
 * or the deepest empty goal of such a room. The search then brings the boxes
 * home one at a time, as the classic levels' solutions do, where single
 * pushes let the matching bound drag every box a little closer at once and
 * jam the ways in. Made beside the single pushes (it prunes nothing), for
 * boxes off the goals, at two pushes or more. Breadth first over (square,
 * last push's direction), the player's area flooded afresh at each, the
 * node's own area at the start (s->reached). Returns the offset of the
 * macro's record in s->macros, its last square in ``*end`` and its pushes
 * in ``*pushes``; -1 when there is none. Greedy forward searches only. */
static int64_t box_macro(Search *s, int from, int *pushes, int *end) {
    if (s->goal_of[from] >= 0) return -1;
    deepest_empty(s);
    int targets = 0;
    for (int h = 0; h < s->goals; h++)
        if (!s->occupant[s->goal_cell[h]] && in_order(s, h) && s->dist[(size_t)from * s->goals + h] != 65535) targets++;
    if (!targets) return -1;
    int box = s->occupant[from];
    occupy(s, s->occupant, from, 0);
    uint32_t visit = fresh_stamp(&s->mq_stamp, s->mq_visit, (size_t)s->size * 4);
    int head = 0, goal_state = -1;
    /* The first pushes, from the node's own area. */
    int tail = queue_pushes(s, from, s->reached, s->reach_stamp, visit, 1, -1, 0);
    while (head < tail && goal_state < 0) {
        int state = s->mq_state[head++];
        int cell = state >> 2;
        /* (The breadth-first search enters no occupied square: a goal reached is empty.) */
        int h = s->goal_of[cell];
        if (h >= 0 && s->mq_parent[state] >= 0 && in_order(s, h)) {
            goal_state = state;
            break;
        }
        area_behind(s, state, box);
        tail = queue_pushes(s, cell, s->mq_reach, s->mq_reach_stamp, visit, 1, state, tail);
    }
    occupy(s, s->occupant, from, box);
    if (goal_state < 0) return -1;
    int path = 0;
    for (int state = goal_state; state >= 0; state = s->mq_parent[state]) path++;
    int64_t offset = macro_room(s, (size_t)path);
    if (offset < 0) return -1;
    uint32_t *record = s->macros + offset;
    record[0] = (uint32_t)path;
    int k = path;
    for (int state = goal_state; state >= 0; state = s->mq_parent[state]) {
        int e = state & 3;
        record[k--] = ((uint32_t)((state >> 2) - s->step[e]) << 2) | (uint32_t)e;
    }
    s->macro_length = (size_t)offset + (size_t)path + 1;
    *pushes = path;
    *end = goal_state >> 2;
    return offset;
}

/* FESS's advisors, one move each (search's advisors): of the expanded node's
 * children, the one that packs the most boxes, the one with the fewest free
 * regions where they are fewer, and with the explorer (box_moves 3) the
 * one whose player reaches the most squares where he reaches more, each
 * the lowest bound among its equals, are free; the others cost one. With
 * ``dual`` that weight is the second lane's (in lane_cost, at most 127):
 * every child goes into the first lane by FESS's weight that add_child gave
 * it, and the advisors' picks into the second as well, the others only
 * keeping their weight for their own children's. With every child in both
 * lanes the second's entries were as many as the first's, and in the
 * portfolio's half of the memory FESS's search with them ran out on
 * Perfect 65; with the picks alone it solved 65 at 12.7 s there (FESS:
 * 37.1 s) and 26 at 12.2 s (30.9 s; docs/benchmarks.md, session 63). */
/* A waiting child into the open list ``cell`` (of either lane) at FESS's
 * priority for weight ``cost``. */
static inline int push_weighed(Search *s, int cell, int cost, const Deferred *d) {
    int32_t priority = open_priority((int64_t)cost * FESS_WEIGHT + d->bound, d->fresh);
    return heap_push(s, cell, priority, -d->child_g, d->target);
}

static Outcome queue_advised(Search *s, int64_t node) {
    Deferred *d = s->deferred;
    size_t none = (size_t)-1, packer = none, joiner = none, explorer = none;
    for (size_t k = 0; k < s->deferred_count; k++) {
        int packed = d[k].cell / REGIONS, best_packed = packer == none ? 0 : d[packer].cell / REGIONS;
        if (packed > s->node_packed &&
            (packer == none || packed > best_packed || (packed == best_packed && d[k].bound < d[packer].bound)))
            packer = k;
        if (d[k].regions < s->node_regions &&
            (joiner == none || d[k].regions < d[joiner].regions ||
             (d[k].regions == d[joiner].regions && d[k].bound < d[joiner].bound)))
            joiner = k;
        if (s->box_moves == 3 && d[k].area > s->node_area &&
            (explorer == none || d[k].area > d[explorer].area ||
             (d[k].area == d[explorer].area && d[k].bound < d[explorer].bound)))
            explorer = k;
    }
    Head *parent = node_head(s, node);
    int base = s->dual ? parent->lane_cost : parent->cost, most = s->dual ? 127 : UINT8_MAX;
    for (size_t k = 0; k < s->deferred_count; k++) {
        int picked = k == packer || k == joiner || k == explorer;
        int cost = base + !picked;
        if (cost > most) cost = most;
        Head *child = node_head(s, d[k].target);
        int cell = d[k].cell;
        if (s->dual) {
            child->lane_cost = (uint8_t)cost & 127;
            if (!push_weighed(s, cell, child->cost, &d[k])) return OUT_OF_MEMORY;
            if (!picked) continue;
            cell += s->heap_count;
        } else {
            child->cost = (uint8_t)cost;
        }
        if (!push_weighed(s, cell, cost, &d[k])) return OUT_OF_MEMORY;
    }
    return RUNNING;
}

/* Box moves (FESS's moves, Shoham and Schaeffer 2020): box ``i`` pushed,
 * every other box still, to each live square (no dead square: a box there
 * can never reach a goal) and side it can reach, each one child, whatever
 * the pushes between; the single pushes are among them.
 * A search over them is as deep as the boxes' moves, not their pushes, so a
 * box taken out of the way and one brought home cost one step each.
 * Breadth first over (square, last push's direction), the player's area
 * at each state flooded afresh, or, where the box's square cuts no region,
 * taken from the area with the box lifted (see below); the node's own area
 * (s->reached) for the first pushes. A child's move holds only its last
 * square and direction (BOX_MOVE): box_move_path finds its pushes again
 * from the parent when an answer is written out. Greedy forward searches
 * only. */
static Outcome box_moves(Search *s, Search *other, int64_t node, int g, uint64_t boxes_hash, int i,
                         int64_t *found, int64_t *met) {
    int from = s->cells[i];
    int box = s->occupant[from];
    occupy(s, s->occupant, from, 0);
    uint32_t visit = fresh_stamp(&s->mq_stamp, s->mq_visit, (size_t)s->size * 4);
    uint32_t done = fresh_stamp(&s->mq_done_stamp, s->mq_done, (size_t)s->size * 4);
    int head = 0, tail = queue_pushes(s, from, s->reached, s->reach_stamp, visit, 1, -1, 0);
    /* The area with the box lifted, flooded at the first state that needs
     * it: every square the box reaches is in it, and where the ring around
     * the box's square joins its free neighbours (most squares of an open
     * room), the player's area behind it is that area without that square,
     * so it takes no flood of its own. */
    int whole_low = -1, whole_size = 0, sides, side[4];
    Outcome outcome = RUNNING;
    while (head < tail && outcome == RUNNING) {
        int state = s->mq_state[head++];
        /* (Its position was made from an earlier state, no more pushes away,
         * and so were the pushes on from it: see below.) */
        if (s->mq_done[state] == done) continue;
        int cell = state >> 2, d = state & 3, pushes = 0, area_low, pieces;
        const uint32_t *area;
        uint32_t area_stamp;
        if (ring_joins(s, cell, side, &sides)) {
            if (whole_low < 0) {
                whole_low = flood(s, from, s->mq_whole, fresh_stamp(&s->mq_whole_stamp, s->mq_whole, (size_t)s->size));
                whole_size = s->flooded;
            }
            area_low = whole_low;
            s->child_area = whole_size - 1;
            if (cell == whole_low)
                while (s->mq_whole[++area_low] != s->mq_whole_stamp) continue;
            area = s->mq_whole;
            area_stamp = s->mq_whole_stamp;
        } else {
            area_low = area_behind(s, state, box);
            s->child_area = s->flooded;
            area = s->mq_reach;
            area_stamp = s->mq_reach_stamp;
        }
        tail = queue_pushes(s, cell, area, area_stamp, visit, 1, state, tail);
        /* The box on this square pushed from any side in this area makes the
         * same position, and the same pushes on: a state of this square
         * taken later with the player there is done (a fifth of FESS's box
         * moves on Holland 64; each was the child's tests and a lookup that
         * found it known, and, where the square cuts a region, a flood). */
        int inside = 0;
        for (int e = 0; e < 4; e++)
            if (area[cell - s->step[e]] == area_stamp) {
                s->mq_done[cell * 4 + e] = done;
                inside++;
            }
        /* The pieces the box cuts its region into (cell_pieces), from the
         * same area: the free squares beside it outside the area (the
         * player's side is in it; where the ring joins them, all are) lie
         * in one other piece if there is one such square; with two or
         * more, cell_pieces looks. */
        int outside = sides - inside;
        pieces = outside <= 1 ? 1 + outside : PIECES_UNKNOWN;
        if (cell == from) continue;
        for (int at = state; at >= 0; at = s->mq_parent[at]) pushes++;
        uint32_t move = pushes == 1 ? ((uint32_t)from << 2) | (uint32_t)d
                                    : (BOX_MOVE << MOVE_SHIFT) | ((uint32_t)cell << 2) | (uint32_t)d;
        occupy(s, s->occupant, from, box);
        /* (The child's area is the area behind the box found above: its lowest square is the child's player.) */
        outcome = add_child(s, other, node, g, boxes_hash, i, from, cell, cell - s->step[d], pushes, move, 0,
                            s->macro_length, area_low, pieces, found, met);
        s->child_area = -1;
        occupy(s, s->occupant, from, 0);
    }
    occupy(s, s->occupant, from, box);
    return outcome;
}

/* The pushes of the box move that made ``node`` (BOX_MOVE), last first, onto
 * ``list``: the box that left its parent's squares, pushed breadth first
 * from the parent's position to the move's last square and direction (the
 * fewest pushes; any way there ends in the same position). 0 on an error. */
static int box_move_path(Search *s, int64_t node, PyObject *list) {
    Head *h = node_head(s, node);
    int64_t parent = h->parent;
    int n = s->boxes, to = move_from(h->move), last = (int)(h->move & 3);
    uint16_t *before = malloc((size_t)n * 2 * sizeof(uint16_t));
    if (before == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    uint16_t *after = before + n;
    unpack_boxes(s, node_key(s, parent), before);
    unpack_boxes(s, node_key(s, node), after);
    int from = -1;
    for (int a = 0; a < n && from < 0; a++) {
        int kept = 0;
        for (int b = 0; b < n; b++) kept |= before[a] == after[b];
        if (!kept) from = before[a];
    }
    for (int a = 0; a < n; a++) occupy(s, s->occupant, before[a], a + 1);
    uint32_t visit = fresh_stamp(&s->mq_stamp, s->mq_visit, (size_t)s->size * 4);
    flood(s, node_head(s, parent)->player, s->mq_reach, fresh_stamp(&s->mq_reach_stamp, s->mq_reach, (size_t)s->size));
    if (from >= 0) occupy(s, s->occupant, from, 0);
    int head = 0, goal = -1;
    int tail = from < 0 ? 0 : queue_pushes(s, from, s->mq_reach, s->mq_reach_stamp, visit, 0, -1, 0);
    while (head < tail && goal < 0) {
        int state = s->mq_state[head++];
        int cell = state >> 2;
        if (cell == to && (state & 3) == last) {
            goal = state;
            break;
        }
        area_behind(s, state, n + 1);
        tail = queue_pushes(s, cell, s->mq_reach, s->mq_reach_stamp, visit, 0, state, tail);
    }
    for (int a = 0; a < n; a++) occupy(s, s->occupant, before[a], 0);
    free(before);
    if (goal < 0) {
        PyErr_SetString(PyExc_RuntimeError, "a box move's pushes were not found again");
        return 0;
    }
    for (int state = goal; state >= 0; state = s->mq_parent[state]) {
        int e = state & 3;
        PyObject *code = PyLong_FromUnsignedLong(((uint32_t)((state >> 2) - s->step[e]) << 2) | (uint32_t)e);
        if (code == NULL || PyList_Append(list, code) < 0) {
            Py_XDECREF(code);
            return 0;
        }
        Py_DECREF(code);
    }
    return 1;
}

static int board_probe(Search *s, const uint16_t *cells, int player, int pushed);
static int add_root(Search *s, uint16_t *cells, int player);

/* Expand the node of ``top``: store and queue its children. A child that is
 * solved (forwards) ends with FOUND and ``*found``; one that ``other`` (the
 * search from the other end) has stored ends with MET, ``*found`` and
 * ``*met`` (the node in ``other``). */
static Outcome expand(Search *s, Search *other, Entry top, int64_t *found, int64_t *met) {
    int n = s->boxes;
    uint16_t *cells = s->cells;
    int64_t node = top.node;
    Head *head = node_head(s, node);
    /* A reopened node (A*) leaves its old entry behind: skip it. */
    if (head->closed || top.tie != -head->g) return RUNNING;
    head->closed = 1;
    int g = head->g;
    int player = head->player;
    unpack_boxes(s, node_key(s, node), cells);
    uint64_t boxes_hash = boxes_hash_of(s, cells, n);
    if (s->weight) {
        /* A* stops when it expands a solved position. */
        int solved = 1;
        for (int i = 0; i < n; i++)
            if (s->goal_of[cells[i]] < 0) solved = 0;
        if (solved) {
            *found = node;
            return FOUND;
        }
    }
    s->expanded++;
    s->last_node = node;
    s->last_cell = s->popped_cell;
    s->expanding = node;
    s->last_priority = top.priority;
    if (head->parent >= 0 && top.priority < s->best_priority) s->best_priority = top.priority;
    for (int i = 0; i < n; i++) {
        occupy(s, s->occupant, cells[i], i + 1);
        s->rows[i] = s->dist + (size_t)cells[i] * s->goals;
    }
    fresh_stamp(&s->reach_stamp, s->reached, (size_t)s->size);
    s->reached_low = flood(s, player, s->reached, s->reach_stamp);
    s->node_area = s->flooded;
    if (s->features) {
        s->node_regions = label_regions(s, s->region, &s->region_stamp);
        if (s->box_moves > 1) s->node_packed = packed_boxes(s, out_of_order(s));
    }
    memset(s->movable, 1, (size_t)(unsigned)n); /* (unsigned: n >= 0, which gcc cannot see once run() inlines this) */
    int restrict_ = -1;
    if (s->corrals && !s->backward) {
        int pushed = head->parent >= 0 ? move_to(s, head->move) : -1;
        restrict_ = pi_corral(s, cells, player, pushed);
    }
    /* (With learned patterns, at every SET_EVERY-th expansion only: see learn_pattern.) */
    if (s->box_sets && !s->backward && restrict_ != 0 && head->parent >= 0 && ++s->set_clock >= s->set_every) {
        s->set_clock = 0;
        if (box_set_deadlock(s, player, move_to(s, head->move))) restrict_ = 0;
    }
    if (s->prober != NULL && restrict_ != 0 && head->parent >= 0 && ++s->probe_clock >= s->probe_every) {
        s->probe_clock = 0;
        if (board_probe(s, cells, player, move_to(s, head->move))) restrict_ = 0;
    }
    s->duals_ready = 0;
    if (s->pattern_count) {
        uint64_t *before = s->box_bits, *after = s->box_bits + n + 1;
        before[0] = 0;
        for (int i = 0; i < n; i++) before[i + 1] = before[i] | square_bit(cells[i]);
        after[n - 1] = 0;
        for (int i = n - 2; i >= 0; i--) after[i] = after[i + 1] | square_bit(cells[i + 1]);
    }
    Outcome outcome = RUNNING;
    for (int i = 0; i < n && outcome == RUNNING && restrict_ != 0 && s->box_moves; i++)
        if (s->movable[i]) outcome = box_moves(s, other, node, g, boxes_hash, i, found, met);
    if (s->deferred_count) {
        if (outcome == RUNNING) outcome = queue_advised(s, node);
        s->deferred_count = 0;
    }
    for (int i = 0; i < n && outcome == RUNNING && restrict_ != 0 && !s->box_moves; i++) {
        if (!s->movable[i]) continue;
        int from = cells[i];
        for (int d = 0; d < 4 && outcome == RUNNING; d++) {
            int to, stand;
            uint32_t move;
            if (s->backward) {
                /* Pull: the player next to the box steps back, drawing it after him. */
                to = from + s->step[d];
                stand = to + s->step[d];
                if (s->reached[to] != s->reach_stamp || !s->floor[stand] || s->occupant[stand]) continue;
                if (!s->live[to]) continue;
                move = ((uint32_t)to << 2) | (uint32_t)((d + 2) & 3);
            } else {
                to = from + s->step[d];
                stand = from;
                if (s->reached[from - s->step[d]] != s->reach_stamp) continue;
                if (!s->floor[to] || s->occupant[to] || !s->live[to]) continue;
                move = ((uint32_t)from << 2) | (uint32_t)d;
            }
            int pushes = 1;
            if (s->tunnels) {
                int end = tunnel_end(s, from, to, d, &pushes);
                if (pushes > 1) {
                    to = end;
                    stand = to - s->step[d];
                    move |= (uint32_t)(pushes - 1) << MOVE_SHIFT;
                }
            }
            /* The single push a tunnel macro replaces is never made. */
            if (pushes > 1) s->shortcuts++;
            /* A goal-room macro is a second child beside the push that enters
             * the room (the box may have to pass through, or wait at the
             * door): a shortcut the greedy order takes when it looks best,
             * which prunes nothing. Its record is dropped again if its child
             * is not kept. */
            int variants = 1, macro_end = 0, macro_pushes = pushes;
            int64_t offset = -1;
            size_t macro_mark = s->macro_length;
            if (s->goal_macros) {
                offset = goal_macro(s, from, to, d, &macro_pushes, &macro_end);
                if (offset >= 0) variants = 2;
            }
            for (int variant = 0; variant < variants && outcome == RUNNING; variant++) {
                if (variant == 1) {
                    to = macro_end;
                    stand = (int)(s->macros[offset + s->macros[offset]] >> 2);
                    pushes = macro_pushes;
                    move = (MACRO << MOVE_SHIFT) | (uint32_t)offset;
                }
                outcome = add_child(s, other, node, g, boxes_hash, i, from, to, stand, pushes, move, variant == 1,
                                    macro_mark, -1, PIECES_UNKNOWN, found, met);
            }
        }
    }
    /* Box-to-goal macros: each box pushed on its own, the shortest way, to a
     * goal it may fill now (see box_macro), as one more child. */
    for (int i = 0; i < n && outcome == RUNNING && restrict_ != 0 && s->box_macros; i++) {
        if (!s->movable[i]) continue;
        int from = cells[i], macro_pushes = 0, macro_end = 0;
        size_t macro_mark = s->macro_length;
        int64_t offset = box_macro(s, from, &macro_pushes, &macro_end);
        if (offset < 0) continue;
        int stand = (int)(s->macros[offset + s->macros[offset]] >> 2);
        outcome = add_child(s, other, node, g, boxes_hash, i, from, macro_end, stand, macro_pushes,
                            (MACRO << MOVE_SHIFT) | (uint32_t)offset, 1, macro_mark, -1, PIECES_UNKNOWN, found, met);
    }
    for (int i = 0; i < n; i++) occupy(s, s->occupant, cells[i], 0);
    return outcome;
}

/* --- whole-board probes ---------------------------------------------------- */

/* Whether the boxes ``cells`` (``k`` of them, at most the level's, and no
 * other box on the board), the player at ``player``, can never all stand on
 * goals, as far as s->prober's search shows within s->probe_limit
 * expansions: it runs out of positions (it makes no macro, and its pruning
 * -- dead squares, freezes, frozen goals, PI-corrals, the matching, the
 * patterns learned so far -- keeps every way to such a position). A set
 * already on goals is not lost. */
static Outcome prober_run(Search *s, const uint16_t *cells, int k, int player, int64_t limit, int64_t *found);
static int probe_lost(Search *s, const uint16_t *cells, int k, int player) {
    Search *p = s->prober;
    int on_goals = 1;
    for (int i = 0; i < k; i++)
        if (s->goal_of[cells[i]] < 0) on_goals = 0;
    if (on_goals) return 0;
    int64_t found = -1;
    return prober_run(s, cells, k, player, s->probe_limit, &found) == RUNNING && !p->open && !p->shortcuts;
}

/* Whether the position ``cells`` (all the boxes), the player at ``player``,
 * is finished by the prober's greedy search (by the matching bound alone,
 * single pushes) within ENDGAME_LIMIT expansions; its last node then in
 * s->endgame_node. A greedy search's order takes a child a few pushes from
 * the end no sooner than any other of its cell and weight: FESS from the
 * pushes' end alone reached a position 5 pushes from the end of Holland 20
 * at 244,514 expansions and had not finished it at 889,344 (53 s of CPU);
 * from both ends the pulls finished it (docs/benchmarks.md, session 47). */
#define ENDGAME_LIMIT 100
static int endgame_finish(Search *s, const uint16_t *cells, int player) {
    int64_t found = -1;
    Outcome outcome = prober_run(s, cells, s->boxes, player, ENDGAME_LIMIT, &found);
    s->endgame_spent += s->prober->expanded;
    if (outcome != FOUND) return 0;
    s->endgame_node = found;
    return 1;
}

/* The prober's search afresh from ``cells`` (``k`` boxes), the player at
 * ``player``, with the search's patterns lent to it, for at most ``limit``
 * expansions: RUNNING where it stopped at the limit or ran out of
 * positions, FOUND with its solved node in *found, OUT_OF_MEMORY where not
 * even its root was made. */
static Outcome prober_run(Search *s, const uint16_t *cells, int k, int player, int64_t limit, int64_t *found) {
    Search *p = s->prober;
    /* The last probe's nodes go: each one's slot is emptied (in any order:
     * the scan looks for the node itself, not for an empty slot), found
     * from its boxes' hash, made again from its key (p->boxes is still the
     * last probe's). */
    size_t mask = p->table_capacity - 1;
    for (int64_t node = 0; node < p->count; node++) {
        unpack_boxes(p, node_key(p, node), p->child_cells);
        uint64_t boxes_hash = boxes_hash_of(p, p->child_cells, p->boxes);
        size_t i = box_slot(boxes_hash, mask);
        while (p->table[i] != slot_of(boxes_hash, node)) i = (i + 1) & mask;
        p->table[i] = SLOT_EMPTY;
    }
    p->count = 0;
    p->heaps[0].length = 0;
    p->open = 0;
    p->expanded = 0;
    p->boxes = k;
    p->pattern_count = s->pattern_count;
    p->pattern_lists = s->pattern_lists;
    p->pattern_data = s->pattern_data;
    memcpy(s->probe_cells, cells, (size_t)k * sizeof(uint16_t));
    Outcome outcome = OUT_OF_MEMORY;
    if (add_root(p, s->probe_cells, player)) {
        int64_t met = -1;
        outcome = RUNNING;
        while (outcome == RUNNING && p->open && p->expanded < limit) outcome = expand(p, NULL, next_entry(p), found, &met);
    }
    p->pattern_count = 0;
    p->pattern_lists = NULL;
    p->pattern_data = NULL;
    return outcome;
}

/* Whole-board probes (the measured lead of docs/benchmarks.md, session 24:
 * of the lost positions a greedy search expands on the unsolved classic
 * levels, more than half are proved lost by a search of the whole board
 * within 100 expansions, where no set of a few boxes near the push is
 * lost). The expanded position (``cells``, sorted; the player at
 * ``player``; the box just pushed on ``pushed``) is probed with all its
 * boxes; a loss prunes it, and with patterns it is learned: the nearest 2,
 * 4, 8, ... boxes to the push (steps over the floor) are probed in turn,
 * and of the first lost set (or all the boxes) each box is dropped,
 * farthest first, while the rest stays lost; what is left is kept as a
 * pattern for the player's area on its own board (learn_pattern's record),
 * so that the loss prunes wherever it recurs. Sound as the box sets are:
 * boxes added never make a push possible. Measured (bench/sokoban_box_sets.py,
 * 20 s of CPU a level, docs/benchmarks.md session 25): a probe every 1,024
 * expansions of at most 30 proves 11-43% of the probed positions lost
 * (SokHard's panel); of Holland's 18 unsolved levels it solved 37 (4.8
 * s), against none; Grigr2001's 6: none either way; SokHard's panel 6 of 8 either way,
 * some levels 15-25% faster, others 4-10% slower (their searches expand the
 * very same positions: what the probes prune there was never to be
 * expanded). Probing every 256th or 64th expansion cost more than it pruned
 * (SokHard 81 and 112 lost); shrinking takes 60-85% of the probes' work. A
 * small search of all the boxes without PI-corrals or the matching
 * (corral_deadlock's) proved a loss in 3% of probes, against 25-55% here. */
static int board_probe(Search *s, const uint16_t *cells, int player, int pushed) {
    int n = s->boxes;
    s->probes++;
    if (!probe_lost(s, cells, n, player)) return 0;
    s->probe_finds++;
    if (!s->patterns) return 1;
    uint16_t *set = s->probe_set, *trial = s->probe_trial;
    int found = nearest_boxes(s, pushed, n, s->size), k = n;
    memcpy(set, found == n ? s->set_order : cells, (size_t)n * sizeof(uint16_t));
    for (int m = 2; m < found; m *= 2) {
        memcpy(trial, set, (size_t)m * sizeof(uint16_t));
        sort_cells(trial, m);
        if (probe_lost(s, trial, m, player)) {
            k = m;
            break;
        }
    }
    for (int drop = k - 1; drop >= 0 && k > 1; drop--) {
        int c = 0;
        for (int j = 0; j < k; j++)
            if (j != drop) trial[c++] = set[j];
        sort_cells(trial, c);
        if (probe_lost(s, trial, c, player)) {
            memmove(set + drop, set + drop + 1, (size_t)(k - drop - 1) * sizeof(uint16_t));
            k--;
        }
    }
    sort_cells(set, k);
    /* The player's area on the pattern's own board. */
    int *saved = s->occupant, *board = s->prober->occupant;
    for (int j = 0; j < k; j++) occupy(s, board, set[j], 1);
    s->occupant = board;
    uint32_t stamp = fresh_stamp(&s->pattern_stamp, s->pattern_marks, (size_t)s->size);
    int own = flood(s, player, s->pattern_marks, stamp);
    s->occupant = saved;
    for (int j = 0; j < k; j++) occupy(s, board, set[j], 0);
    memset(s->pattern_area, 0, (size_t)s->area_words * sizeof(uint16_t));
    for (int f = 0; f < s->floor_count; f++) {
        int cell = s->floor_cells[f];
        if (s->pattern_marks[cell] == stamp) s->pattern_area[cell >> 4] |= (uint16_t)(1u << (cell & 15));
    }
    int32_t before = s->pattern_count;
    pattern_store(s, set, k, own);
    s->probe_patterns += s->pattern_count - before;
    return 1;
}

/* The search loop: one search, or two from both ends taking turns: the
 * forward one (with its corral and freeze pruning) ``forward_turns``
 * expansions, then the backward one ``backward_turns`` (search's ``turns``).
 * Each level is mostly solved by one end alone, which the share decides:
 * at 15 s of CPU, penalty 3, 2:1 solved SokHard 112 in 11.4 s, 1:2 in
 * 4.1 s, its answer the backward search's, and Holland 14 in 7.9 s against
 * 14.4 s, the forward search's (docs/benchmarks.md, session 38). A search
 * that runs out of positions proves the level unsolvable only if it took no
 * macro (one may have skipped the way); otherwise the backward search,
 * which takes none, goes on alone, and a forward search alone ends
 * INCOMPLETE. */
#define TURNS_MAX 16

static int trace_point(Search *forward, Search *backward, PyObject *trace);

static Outcome run(Search *forward, Search *backward, int forward_turns, int backward_turns, PyObject *check,
                   PyObject *trace, int64_t *found, int64_t *met, int *side) {
    int64_t turn = 0, cycle = forward_turns + backward_turns;
    int forward_done = 0;
    while (1) {
        int64_t expanded = forward->expanded + (backward ? backward->expanded : 0);
        PyObject *answer = PyObject_CallFunction(check, "L", (long long)expanded);
        if (answer == NULL) return ERROR;
        Py_DECREF(answer);
        if (trace != NULL && forward->last_node >= 0 && !trace_point(forward, backward, trace)) return ERROR;
        Outcome outcome = RUNNING;
        /* The expansions between two checks touch no Python object: the
         * interpreter's lock is let go meanwhile, so that other threads run
         * (another search of the portfolio on the other core, or the rest of
         * the program). */
        Py_BEGIN_ALLOW_THREADS
        for (int i = 0; i < CHECK_EVERY && outcome == RUNNING; i++) {
            Search *s = forward, *other = backward;
            *side = 0;
            if (backward != NULL && (forward_done || turn++ % cycle >= forward_turns)) {
                s = backward;
                other = forward;
                *side = 1;
            }
            if (s->open)
                outcome = expand(s, other, next_entry(s), found, met);
            else if (!s->shortcuts)
                outcome = EXHAUSTED;
            else if (s == forward && backward != NULL)
                forward_done = 1;
            else
                outcome = INCOMPLETE;
        }
        Py_END_ALLOW_THREADS
        if (outcome != RUNNING) return outcome;
    }
}

/* A trace's record of the forward search now, at a check: (expanded by
 * both ends, bytes held by both, lowest priority expanded so far, the last
 * expanded node's priority and pushes, its boxes and player, the pushes
 * to it from the start, the box-set tests and deadlocks so far, the
 * patterns and the children they pruned, the probes, the losses they proved
 * and the patterns learned from those, and the last expanded node's feature
 * cell). Measurement only (bench/sokoban_plateau.py): which positions a search spends itself on. */
static int append_moves(Search *s, int64_t node, PyObject *list);

static int trace_point(Search *forward, Search *backward, PyObject *trace) {
    Head *h = node_head(forward, forward->last_node);
    uint16_t *cells = forward->child_cells;
    unpack_boxes(forward, node_key(forward, forward->last_node), cells);
    PyObject *boxes = PyTuple_New(forward->boxes);
    if (boxes == NULL) return 0;
    for (int i = 0; i < forward->boxes; i++) PyTuple_SET_ITEM(boxes, i, PyLong_FromLong(cells[i]));
    long long expanded = forward->expanded + (backward ? backward->expanded : 0);
    unsigned long long bytes = *forward->pool; /* (both ends': they share it) */
    PyObject *path = PyList_New(0);
    if (path == NULL || !append_moves(forward, forward->last_node, path) || PyList_Reverse(path) < 0) {
        Py_XDECREF(path);
        Py_DECREF(boxes);
        return 0;
    }
    PyObject *point = Py_BuildValue("(LKiiiNiNLLiLLLLi)", expanded, bytes, (int)forward->best_priority,
                                    (int)forward->last_priority, (int)h->g, boxes, (int)h->player, path,
                                    (long long)forward->set_tests, (long long)forward->set_deadlocks,
                                    (int)forward->pattern_count, (long long)forward->pattern_prunes,
                                    (long long)forward->probes, (long long)forward->probe_finds,
                                    (long long)forward->probe_patterns, forward->last_cell);
    if (point == NULL) return 0;
    int ok = PyList_Append(trace, point) == 0;
    Py_DECREF(point);
    return ok;
}

static void release(Search *s) {
    if (s->prober != NULL) {
        release(s->prober);
        free(s->prober);
    }
    /* (A prober's pattern_lists are its search's, and NULL but during a probe.) */
    for (int c = 0; s->pattern_lists != NULL && c < s->size; c++) {
        free(s->pattern_lists[c].squares);
        free(s->pattern_lists[c].offset);
    }
    free(s->probe_cells);
    free(s->probe_set);
    free(s->probe_trial);
    for (size_t i = 0; i < s->chunk_count; i++) free(s->chunks[i]);
    free(s->chunks);
    free(s->table);
    for (int i = 0; s->heaps != NULL && i < 2 * s->heap_count; i++) free(s->heaps[i].data);
    free(s->heaps);
    free(s->deferred);
    free(s->cycle);
    free(s->floor_cells);
    free(s->floor_index);
    free(s->duals_cache);
    free(s->key);
    void *scratch[] = {s->dead, s->goal_cell, s->goal_of, s->nearest, s->nearest_goal, s->layer, s->group, s->zobrist,
                       s->occupant, s->reached, s->seen, s->area, s->region, s->split_mark, s->split_queue, s->queue,
                       s->held, s->stuck, s->movable, s->fence, s->cells, s->child_cells, s->max_empty, s->goal_taken,
                       s->row_price, s->column_price, s->row_price2, s->column_price2, s->slack, s->owner, s->owner2,
                       s->way, s->pending, s->used, s->reached_at, s->settled, s->cell_row, s->cell_column, s->floor_rows, s->fill_reach, s->fill_free, (void *)s->rows, s->fg_frozen, s->fg_reach, s->fg_keys,
                       s->fg_boxes, s->fg_owner, s->fg_seen, s->cs_occupant, s->cs_free, s->cs_free_mark,
                       s->cs_cells, s->cs_child, s->cs_nodes, s->cs_reach, s->cs_seen, s->cs_table, s->cs_slot,
                       s->cs_hashes, s->verdict_key, s->verdict, s->set_order, s->macros, s->mq_state, s->mq_parent,
                       s->mq_visit, s->mq_reach, s->mq_whole, s->mq_done, s->pattern_data, s->pattern_lists, s->pattern_keys,
                       s->pattern_marks, s->pattern_area, s->box_bits, s->room_start, s->room_goal, s->room_place,
                       s->plan_block, s->plan_reach, s->plan_table, s->novel_bits, s->after_start, s->wait_least,
                       s->wait_start, s->wait_cell};
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) free(scratch[i]);
}

static int int_list(PyObject *list, int *out, Py_ssize_t length, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != length) {
        PyErr_Format(PyExc_ValueError, "%s: a list of %zd integers is needed", what, length);
        return 0;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        long value = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (value == -1 && PyErr_Occurred()) return 0;
        if (value < INT_MIN || value > INT_MAX) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, value);
            return 0;
        }
        out[i] = (int)value;
    }
    return 1;
}

/* The rooms-in-order conditions of each goal (Search's after_start,
 * wait_least, wait_start and wait_cell) from ``after``, a flat list of
 * conditions (goal index, least, count, that many squares), by goal index
 * ascending; 0 with an exception set. */
static int after_lists(Search *s, PyObject *after, int n) {
    Py_ssize_t length = PyList_GET_SIZE(after);
    int *flat = calloc((size_t)length + 1, sizeof(int));
    if (!flat) {
        PyErr_NoMemory();
        return 0;
    }
    int ok = int_list(after, flat, length, "after"), conditions = 0, previous = 0;
    /* Each condition: a goal index not below the one before, 1 <= least <=
     * count, and count squares of the board, ascending (none twice). */
    for (Py_ssize_t i = 0; ok && i < length;) {
        ok = i + 3 <= length && flat[i] >= previous && flat[i] < n && flat[i + 1] >= 1 &&
             flat[i + 1] <= flat[i + 2] && flat[i + 2] <= length - i - 3;
        for (int k = 0; ok && k < flat[i + 2]; k++)
            ok = flat[i + 3 + k] >= (k ? flat[i + 2 + k] + 1 : 0) && flat[i + 3 + k] < s->size;
        if (!ok) break;
        previous = flat[i], conditions++;
        i += 3 + (Py_ssize_t)flat[i + 2];
    }
    if (!ok) {
        free(flat);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "after: conditions (goal index, least, count, squares ascending), by goal index, are needed");
        return 0;
    }
    /* (On failure, what was allocated stays on ``s`` for release.) */
    s->after_start = calloc((size_t)n + 1, sizeof(int));
    s->wait_least = calloc((size_t)conditions + 1, sizeof(int));
    s->wait_start = calloc((size_t)conditions + 1, sizeof(int));
    s->wait_cell = calloc((size_t)length + 1, sizeof(int));
    if (!s->after_start || !s->wait_least || !s->wait_start || !s->wait_cell) {
        free(flat);
        PyErr_NoMemory();
        return 0;
    }
    int c = 0, cells = 0;
    for (Py_ssize_t i = 0; i < length; i += 3 + flat[i + 2], c++) {
        s->after_start[flat[i] + 1]++;
        s->wait_least[c] = flat[i + 1];
        for (int k = 0; k < flat[i + 2]; k++) s->wait_cell[cells++] = flat[i + 3 + k];
        s->wait_start[c + 1] = cells;
    }
    for (int g = 0; g < n; g++) s->after_start[g + 1] += s->after_start[g];
    s->afters = conditions;
    free(flat);
    return 1;
}

/* One end's targets: (goals, dist, live, layer, group, after), buffers kept alive by the caller. */
typedef struct {
    PyObject *goals, *layer, *group, *after;
    Py_buffer dist, live;
    int held_buffers;
} Targets;

static int parse_targets(PyObject *spec, Targets *t) {
    memset(t, 0, sizeof *t);
    if (!PyArg_ParseTuple(spec, "O!y*y*O!O!O!", &PyList_Type, &t->goals, &t->dist, &t->live, &PyList_Type, &t->layer,
                          &PyList_Type, &t->group, &PyList_Type, &t->after))
        return 0;
    t->held_buffers = 1;
    return 1;
}

static void release_targets(Targets *t) {
    if (t->held_buffers) {
        PyBuffer_Release(&t->dist);
        PyBuffer_Release(&t->live);
    }
}

/* Everything a search needs, sized for the board; 0 with an exception set. */
static int prepare(Search *s, int width, const Py_buffer *floor, const Targets *t, int weight, int packing,
                   int corrals, int features, int backward, size_t budget, int box_sets, int patterns) {
    int size = (int)floor->len;
    int n = (int)PyList_GET_SIZE(t->goals);
    if (t->live.len != size || n < 1 || width < 3 || size > 65535 || t->dist.len != (Py_ssize_t)size * n * 2) {
        PyErr_SetString(PyExc_ValueError, "inconsistent board");
        return 0;
    }
    s->width = width;
    s->size = size;
    s->novel_words = (size + 63) / 64;
    s->boxes = s->goals = n;
    s->step[0] = -1;
    s->step[1] = -width;
    s->step[2] = 1;
    s->step[3] = width;
    s->floor = floor->buf;
    s->live = t->live.buf;
    s->dist = t->dist.buf;
    s->weight = weight;
    s->packing = packing;
    s->corrals = corrals;
    s->features = features;
    s->backward = backward;
    s->budget = budget;
    s->pool = &s->pool_own;
    s->pool_budget = budget;
    s->heap_count = features ? (n + 1) * REGIONS : 1;
    /* (Room for the second lane, ``dual``'s, set later: a few kilobytes.) */
    s->heaps = calloc((size_t)s->heap_count * 2, sizeof(Heap));
    s->cycle = calloc((size_t)s->heap_count * 2, sizeof(int));
    s->floor_cells = calloc((size_t)size, sizeof(int));
    s->floor_index = calloc((size_t)size, sizeof(int));
    s->dead = calloc((size_t)size, 1);
    s->goal_cell = calloc((size_t)n, sizeof(int));
    s->goal_of = calloc((size_t)size, sizeof(int));
    s->nearest = calloc((size_t)size, sizeof(int));
    s->nearest_goal = calloc((size_t)size, sizeof(int));
    s->layer = calloc((size_t)n, sizeof(int));
    s->group = calloc((size_t)n, sizeof(int));
    s->zobrist = calloc((size_t)size, sizeof(uint64_t));
    /* (Boards of up to 64 squares a row: the rows of its boxes after each board's squares.) */
    s->height = size / width;
    s->row_bits = width <= 64 && size % width == 0;
    s->rows_at = s->row_bits ? (size + 1) & ~1 : size;
    size_t board_ints = (size_t)s->rows_at + (s->row_bits ? 2 * (size_t)s->height : 0);
    s->cell_row = calloc((size_t)size, sizeof(uint16_t));
    s->cell_column = calloc((size_t)size, 1);
    s->floor_rows = calloc((size_t)s->height + 1, sizeof(uint64_t));
    s->fill_reach = calloc((size_t)s->height + 1, sizeof(uint64_t));
    s->fill_free = calloc((size_t)s->height + 1, sizeof(uint64_t));
    s->occupant = calloc(board_ints, sizeof(int));
    s->reached = calloc((size_t)size, sizeof(uint32_t));
    s->seen = calloc((size_t)size, sizeof(uint32_t));
    s->area = calloc((size_t)size, sizeof(uint32_t));
    s->region = calloc((size_t)size, sizeof(uint32_t));
    s->split_mark = calloc((size_t)size, sizeof(uint32_t));
    s->split_queue = calloc(2 * (size_t)size, sizeof(int));
    s->queue = calloc((size_t)size, sizeof(int));
    s->held = calloc((size_t)size, 1);
    s->stuck = calloc((size_t)size, sizeof(int));
    s->movable = calloc((size_t)n, 1);
    s->endgame_node = -1;
    s->fence = calloc((size_t)n, 1);
    s->cells = calloc((size_t)n, sizeof(uint16_t));
    s->child_cells = calloc((size_t)n, sizeof(uint16_t));
    s->max_empty = calloc((size_t)n, sizeof(int));
    s->goal_taken = calloc((size_t)n, sizeof(uint32_t));
    s->row_price = calloc((size_t)n + 1, sizeof(int64_t));
    s->column_price = calloc((size_t)n + 1, sizeof(int64_t));
    s->row_price2 = calloc((size_t)n + 1, sizeof(int64_t));
    s->column_price2 = calloc((size_t)n + 1, sizeof(int64_t));
    s->slack = calloc((size_t)n + 1, sizeof(int64_t));
    s->owner = calloc((size_t)n + 1, sizeof(int));
    s->owner2 = calloc((size_t)n + 1, sizeof(int));
    s->way = calloc((size_t)n + 1, sizeof(int));
    s->pending = calloc((size_t)n + 1, sizeof(int));
    s->used = calloc((size_t)n + 1, 1);
    s->reached_at = calloc((size_t)n + 1, sizeof(int64_t));
    s->settled = calloc((size_t)n + 1, sizeof(int));
    s->rows = calloc((size_t)n, sizeof(uint16_t *));
    s->box_bits = calloc(2 * (size_t)n + 2, sizeof(uint64_t));
    s->fg_frozen = calloc((size_t)size, 1);
    /* The frozen sets' squares: as many slots as fit FG_CACHE_BYTES, a power of two. */
    s->fg_words = (n + 63) / 64; /* (n >= 1: checked above) */
    size_t fg_bytes = (size_t)size * (size_t)s->fg_words * sizeof(uint64_t);
    s->fg_slots = 1;
    while (s->fg_slots < FG_SLOTS_MAX && fg_bytes * (size_t)s->fg_slots * 2 <= FG_CACHE_BYTES) s->fg_slots *= 2;
    s->fg_reach = calloc(fg_bytes * (size_t)s->fg_slots, 1);
    s->fg_keys = calloc((size_t)s->fg_slots, sizeof(uint64_t));
    s->fg_boxes = calloc((size_t)n, sizeof(int));
    s->fg_owner = calloc((size_t)n, sizeof(int));
    s->fg_seen = calloc(2 * (size_t)s->fg_words, sizeof(uint64_t));
    s->box_sets = backward ? 0 : box_sets;
    s->patterns = backward ? 0 : patterns;
    s->set_every = s->patterns ? SET_EVERY : 1;
    if (s->patterns) {
        s->area_words = (size + 15) / 16;
        s->pattern_area = calloc((size_t)s->area_words, sizeof(uint16_t));
        s->pattern_data_capacity = (size_t)PATTERN_LIMIT * (size_t)(CORRAL_BOXES + 2 + s->area_words);
        s->pattern_link_capacity = PATTERN_LIMIT * CORRAL_BOXES;
        s->pattern_data = calloc(s->pattern_data_capacity, sizeof(uint16_t));
        s->pattern_lists = calloc((size_t)size, sizeof(PatternList));
        s->pattern_keys = calloc(PATTERN_KEYS, sizeof(uint64_t));
        s->pattern_marks = calloc((size_t)size, sizeof(uint32_t));
        if (!s->pattern_area || !s->pattern_data || !s->pattern_lists || !s->pattern_keys || !s->pattern_marks) {
            PyErr_NoMemory();
            return 0;
        }
    }
    if ((corrals > 1 || s->box_sets || s->patterns) && !backward) {
        s->cs_occupant = calloc(board_ints, sizeof(int));
        s->cs_free = calloc((size_t)size, sizeof(int));
        s->cs_free_mark = calloc((size_t)size, sizeof(uint32_t));
        s->cs_cells = calloc(CORRAL_BOXES, sizeof(uint16_t));
        s->set_order = calloc(n > CORRAL_BOXES ? (size_t)n : CORRAL_BOXES, sizeof(uint16_t));
        s->cs_child = calloc(2 * (CORRAL_BOXES + 1), sizeof(uint16_t));
        s->cs_nodes = calloc((size_t)CORRAL_NODES * (CORRAL_BOXES + 1), sizeof(uint16_t));
        s->cs_reach = calloc((size_t)size, sizeof(uint32_t));
        s->cs_seen = calloc((size_t)size, sizeof(uint32_t));
        s->cs_table = malloc(CORRAL_TABLE * sizeof(int32_t));
        s->cs_slot = calloc(CORRAL_NODES, sizeof(int32_t));
        s->cs_hashes = calloc(CORRAL_NODES, sizeof(uint64_t));
        s->verdict_key = calloc(VERDICTS, sizeof(uint64_t));
        s->verdict = calloc(VERDICTS, 1);
        if (!s->cs_occupant || !s->cs_free || !s->cs_free_mark || !s->cs_cells || !s->set_order || !s->cs_child ||
            !s->cs_nodes || !s->cs_reach || !s->cs_seen || !s->cs_table || !s->cs_slot || !s->cs_hashes ||
            !s->verdict_key || !s->verdict) {
            PyErr_NoMemory();
            return 0;
        }
        memset(s->cs_table, 0xff, CORRAL_TABLE * sizeof(int32_t));
    }
    if (!s->heaps || !s->cycle || !s->floor_cells || !s->floor_index || !s->dead || !s->goal_cell || !s->goal_of ||
        !s->nearest || !s->nearest_goal || !s->layer || !s->group || !s->zobrist || !s->occupant || !s->reached ||
        !s->seen || !s->area || !s->region || !s->split_mark || !s->split_queue || !s->queue || !s->held ||
        !s->stuck || !s->movable || !s->fence || !s->cells || !s->child_cells || !s->max_empty || !s->goal_taken ||
        !s->row_price || !s->column_price || !s->row_price2 || !s->column_price2 || !s->slack || !s->owner ||
        !s->owner2 || !s->way || !s->pending || !s->used || !s->reached_at || !s->settled || !s->cell_row || !s->cell_column ||
        !s->floor_rows || !s->fill_reach || !s->fill_free || !s->rows || !s->box_bits || !s->fg_frozen ||
        !s->fg_reach || !s->fg_keys || !s->fg_boxes || !s->fg_owner || !s->fg_seen) {
        PyErr_NoMemory();
        return 0;
    }
    if (!int_list(t->goals, s->goal_cell, n, "goals") || !int_list(t->layer, s->layer, n, "layer") ||
        !int_list(t->group, s->group, n, "group") || !after_lists(s, t->after, n))
        return 0;
    for (int i = 0; i < n; i++) {
        if (s->goal_cell[i] <= 0 || s->goal_cell[i] >= size || !s->floor[s->goal_cell[i]]) {
            PyErr_SetString(PyExc_ValueError, "a goal lies off the floor");
            return 0;
        }
        if (s->group[i] + 1 > s->groups) s->groups = s->group[i] + 1;
    }
    /* The board's edge is wall (levels are closed), so a step never leaves it. */
    const uint8_t *on_floor = floor->buf;
    for (int c = 0; c < size; c++) {
        int x = c % width;
        if (on_floor[c] && (x == 0 || x == width - 1 || c < width || c >= size - width)) {
            PyErr_SetString(PyExc_ValueError, "floor on the board's edge");
            return 0;
        }
        if (on_floor[c]) s->floor_cells[s->floor_count++] = c;
        s->cell_row[c] = (uint16_t)(c / width);
        s->cell_column[c] = (uint8_t)(x < 64 ? x : 0);
        if (on_floor[c] && s->row_bits) s->floor_rows[c / width] |= 1ULL << x;
    }
    /* row_fill's shifts: enough to cross the longest run of floor in a row. */
    int longest = 1;
    for (int c = 0, run = 0; c < size; c++) {
        run = on_floor[c] ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    for (s->fill_steps = 0; (1 << s->fill_steps) < longest; s->fill_steps++) {
    }
    /* The same Zobrist keys at both ends, so that their hashes compare. */
    uint64_t seed = 0x243F6A8885A308D3ULL;
    const uint16_t *dist = t->dist.buf;
    for (int c = 0; c < size; c++) {
        s->goal_of[c] = -1;
        s->dead[c] = on_floor[c] && !s->live[c];
        seed += 0x9E3779B97F4A7C15ULL; /* splitmix64 */
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        s->zobrist[c] = z ^ (z >> 31);
        s->nearest[c] = INF;
        s->nearest_goal[c] = 0;
        for (int g = 0; g < n; g++) {
            int d = dist[(size_t)c * n + g];
            if (d < 65535 && d < s->nearest[c]) {
                s->nearest[c] = d;
                s->nearest_goal[c] = g;
            }
        }
    }
    for (int g = 0; g < n; g++) s->goal_of[s->goal_cell[g]] = g;
    size_t list_bytes = (size_t)s->boxes * sizeof(uint16_t), bit_bytes = ((size_t)s->floor_count + 7) / 8;
    s->bit_keys = bit_bytes < list_bytes;
    s->key_bytes = s->bit_keys ? bit_bytes : list_bytes;
    s->key = calloc(s->key_bytes, 1);
    if (s->key == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    for (int c = 0; c < size; c++) s->floor_index[c] = -1;
    for (int i = 0; i < s->floor_count; i++) s->floor_index[s->floor_cells[i]] = i;
    /* (Head's fields take four bytes at most: a record keeps to four.) */
    s->record = (sizeof(Head) + s->key_bytes + 3) & ~(size_t)3;
    s->table_capacity = 1 << 15; /* (256 KB, as 1 << 16 slots took before they held hashes) */
    s->table = counted_alloc(s, s->table_capacity * sizeof(uint64_t));
    if (s->table == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    memset(s->table, 0xff, s->table_capacity * sizeof(uint64_t));
    return 1;
}

/* Store and queue a root: the boxes on ``cells`` (sorted here), the player
 * anywhere in the area of ``player``. 0 when the memory budget is spent. */
static int add_root(Search *s, uint16_t *cells, int player) {
    int n = s->boxes;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cells[j] < cells[j - 1]; j--) {
            uint16_t swap = cells[j];
            cells[j] = cells[j - 1];
            cells[j - 1] = swap;
        }
    for (int i = 0; i < n; i++) occupy(s, s->occupant, cells[i], i + 1);
    int canonical = flood(s, player, s->seen, fresh_stamp(&s->seen_stamp, s->seen, (size_t)s->size));
    for (int i = 0; i < n; i++) occupy(s, s->occupant, cells[i], 0);
    uint64_t boxes_hash = boxes_hash_of(s, cells, n);
    pack_boxes(s, cells, s->key);
    if (find(s, boxes_hash, canonical, s->key) >= 0) return 1;
    int64_t root = add(s, boxes_hash, canonical, s->key, -1, 0, 0);
    return root >= 0 && heap_push(s, 0, 0, 0, root);
}

/* Append the moves from ``node`` up to its root: a backward search's pushes
 * in the order they are made, a forward search's reversed. */
static int append_moves(Search *s, int64_t node, PyObject *list) {
    for (; node_head(s, node)->parent >= 0; node = node_head(s, node)->parent) {
        uint32_t move = node_head(s, node)->move;
        if (is_box_move(move)) {
            if (!box_move_path(s, node, list)) return 0;
            continue;
        }
        int d = (int)(move & 3), from = move_from(move);
        const uint32_t *record = is_macro(move) ? macro_record(s, move) : NULL;
        /* A macro's pushes one by one, last first (the list is reversed after). */
        for (int j = (record ? (int)record[0] : move_pushes(move)) - 1; j >= 0; j--) {
            uint32_t push = record ? record[1 + j] : ((uint32_t)(from + j * s->step[d]) << 2) | (uint32_t)d;
            PyObject *code = PyLong_FromUnsignedLong(push);
            if (code == NULL || PyList_Append(list, code) < 0) {
                Py_XDECREF(code);
                return 0;
            }
            Py_DECREF(code);
        }
    }
    return 1;
}

static const char search_doc[] =
    "search(width, floor, boxes, player, forward, backward, weight, packing, corrals, features,\n"
    "       budget, check, tunnels=False, goal_rooms=False, trace=None, box_sets=0, patterns=0,\n"
    "       probes=0, probe_limit=0, box_macros=False, plans=False, novelty=False, weighted=0,\n"
    "       stamps=0, square_floods=False, forward_turns=2, backward_turns=1, box_moves=0,\n"
    "       endgame=0, explore=0, advisors=False, dual=False)\n"
    "    -> (status, pushes, expanded, generated)\n\n"
    "Best-first search over pushes: priority weight * pushes + bound (weight 0: greedy,\n"
    "stopping at the first solved position generated; 1: A*, push-optimal). floor is one byte\n"
    "per square. forward is (goals, dist, live, layer, group, after): dist holds uint16 push\n"
    "distances, square by square, one per goal (65535: never), live one byte per square,\n"
    "layer and group each goal's packing layer and goal room (-1: none), after a flat list\n"
    "of conditions (goal index, least, count, that many squares), by goal index: a box on\n"
    "the goal is out of order while fewer than least boxes stand on the squares (rooms in\n"
    "order, packing.py). backward, if not\n"
    "None, is the same for a greedy search by pulls from the solved position (its goals the\n"
    "start squares, its roots the goals with the player in each area he may finish in);\n"
    "the two take turns until they meet. packing: the penalty per box filled out of order.\n"
    "corrals (forward only): 0 none, 1 PI-corral pruning, 2 that and a small search of a new\n"
    "PI-corral's boxes that proves some positions lost.\n"
    "features: one open list per feature cell (boxes packed, free regions), taken in turn.\n"
    "tunnels (greedy forward searches only): a box pushed into a one-wide corridor with the\n"
    "player behind it is pushed on in the same move while the corridor lasts.\n"
    "goal_rooms (greedy forward searches only): a push into a goal room with a packing order\n"
    "gets a second child, the box pushed on in the same move to the room's deepest empty goal.\n"
    "budget: bytes the search may allocate, its two ends together (one may take what the other\n"
    "leaves). check(expanded) is called now and then and may raise to stop the search.\n"
    "status is 'solved' (pushes: box square << 2 | direction,\n"
    "LURD), 'exhausted' (no solution), 'incomplete' (out of positions after macros skipped\n"
    "some: no proof) or 'memory'. trace (measurement), if a list: at each check a tuple\n"
    "(expanded, bytes, lowest priority expanded, last priority, its pushes, its boxes, its\n"
    "player, the pushes to it from the start, box-set tests and deadlocks so far, patterns\n"
    "learned and children they pruned, probes made, losses they proved and patterns learned\n"
    "from those, its feature cell: boxes packed * 16 + free regions, up to 15) of the forward\n"
    "search is appended.\n"
    "box_sets (forward searches): at each expansion the box just pushed and its nearest\n"
    "boxes, 2, 4, 8 up to box_sets of them, are searched alone; a set that can never reach\n"
    "goals is a deadlock (0: off).\n"
    "patterns (forward searches, with box_sets): every lost box set found is shrunk to a\n"
    "minimal lost set and kept, and a child holding one is pruned; the box sets are then\n"
    "searched at every 4th expansion only (0: off).\n"
    "probes, probe_limit (forward searches): every probes-th expansion the position is searched\n"
    "with all its boxes for at most probe_limit expansions; one found lost is pruned and, with\n"
    "patterns, shrunk and learned as a pattern (0: off).\n"
    "box_macros (greedy forward searches only): each box off the goals also gets a child that\n"
    "pushes it the fewest pushes, the other boxes still, to the nearest goal it may fill now.\n"
    "plans (greedy forward searches only): packing plans: the penalty counts a goal room's\n"
    "empty goals that no order can fill any more with its filled ones staying (not the boxes\n"
    "out of layer order), and the macros fill a goal that blocks no more of them.\n"
    "novelty (greedy searches only): a child that puts a box on a square, or the player in an\n"
    "area, where no child of the same bound had one before goes first in its open list.\n"
    "weighted (greedy searches only; 0: off): the priority is pushes + weighted * bound\n"
    "(weighted A*), not the bound alone.\n"
    "stamps (tests): the counters of the searches' square marks start here; near 2^32 they\n"
    "wrap within a short search (each wrap clears its marks).\n"
    "square_floods (tests): the player's areas are flooded square by square, as on a board over\n"
    "64 squares wide, not a row at a time; the search is the same.\n"
    "box_moves (greedy forward searches only; 0: off): each child moves one box, the others\n"
    "still, to any live square and side it can reach, in as many pushes as it takes (FESS's\n"
    "moves; no other macro then); 2: with feature cells, positions are taken by FESS's weights,\n"
    "the box moves on their way that no advisor suggests (one that packs a box or leaves fewer\n"
    "free regions is free), then by the bound (not weighted); without feature cells, as 1; 3: as\n"
    "2, and a box move that lets the player reach more squares is free too (FESS's explorer).\n"
    "endgame (greedy forward searches with probes; 0: off, at most 16): a new child whose\n"
    "matching bound is at most that many pushes is searched on by the prober (at most 100\n"
    "expansions); if it reaches the end, so does the search, the prober's pushes last.\n"
    "explore (greedy searches only; 0: off, at most 100): that many expansions in a hundred\n"
    "take a node of the open list (of the feature cell in turn) at random, not the best; the\n"
    "draws are the same each run.\n"
    "advisors (with box_moves 2 or 3 and feature cells): as FESS's advisors, each makes one\n"
    "move free, its best: the child that packs the most boxes, the one that leaves the fewest\n"
    "free regions where they are fewer, with the explorer the one whose player reaches the\n"
    "most squares where he reaches more (each the lowest bound among its equals); not every\n"
    "move that does so.\n"
    "dual (with advisors): two open lists taken in turn: every child in one ordered by FESS's\n"
    "weights (as without advisors), the advisors' picks in the other too, by the advisors'.";

/* Packing plans for a greedy forward search (room_blocked): each goal
 * room's goals listed, the peel's scratch and the verdicts' table. Rooms of
 * over 64 goals keep to the layers (no plans at all). 0 on a memory error. */
static int plan_rooms(Search *s) {
    int n = s->goals, k = s->groups;
    s->room_start = calloc((size_t)k + 1, sizeof(int));
    s->room_goal = calloc((size_t)n, sizeof(int));
    s->room_place = calloc((size_t)n, sizeof(int));
    s->plan_block = calloc((size_t)s->size, 1);
    s->plan_reach = calloc((size_t)s->size, sizeof(uint32_t));
    s->plan_capacity = 1024;
    s->plan_table = counted_alloc(s, s->plan_capacity * sizeof(PlanEntry));
    if (!s->room_start || !s->room_goal || !s->room_place || !s->plan_block || !s->plan_reach || !s->plan_table) {
        PyErr_NoMemory();
        return 0;
    }
    for (size_t i = 0; i < s->plan_capacity; i++) s->plan_table[i].room = -1;
    int at = 0;
    for (int room = 0; room < k; room++) {
        s->room_start[room] = at;
        for (int g = 0; g < n; g++)
            if (s->group[g] == room) {
                s->room_place[g] = at - s->room_start[room];
                s->room_goal[at++] = g;
            }
        if (at - s->room_start[room] > 64) return 1;
    }
    s->room_start[k] = at;
    s->plans = 1;
    return 1;
}

/* Every mark counter of ``s`` set to ``stamp`` (search's ``stamps``: the
 * tests start them near 2^32, to see them wrap within a short search). */
static void start_stamps(Search *s, uint32_t stamp) {
    s->reach_stamp = s->seen_stamp = s->area_stamp = s->region_stamp = s->split_stamp = stamp;
    s->taken_stamp = s->cs_free_stamp = s->pattern_stamp = s->cs_stamp = stamp;
    s->plan_stamp = s->mq_stamp = s->mq_reach_stamp = s->mq_whole_stamp = stamp;
}

static PyObject *search(PyObject *Py_UNUSED(self), PyObject *args) {
    int width, player, weight, packing, corrals, features, tunnels = 0, goal_rooms = 0, box_sets = 0, patterns = 0;
    int probes = 0, probe_limit = 0, box_macros = 0, plans = 0, novelty = 0, weighted = 0, square_floods = 0;
    int forward_turns = 2, backward_turns = 1, box_moves_on = 0, endgame = 0, explore = 0, advisors = 0;
    int dual = 0;
    unsigned int stamps = 0;
    Py_buffer floor;
    PyObject *boxes, *forward_spec, *backward_spec, *check, *trace = Py_None;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "iy*O!iO!OiiipKO|ppOiiiipppiIpiiiiipp", &width, &floor, &PyList_Type, &boxes, &player, &PyTuple_Type,
                          &forward_spec, &backward_spec, &weight, &packing, &corrals, &features, &budget, &check,
                          &tunnels, &goal_rooms, &trace, &box_sets, &patterns, &probes, &probe_limit, &box_macros,
                          &plans, &novelty, &weighted, &stamps, &square_floods, &forward_turns, &backward_turns,
                          &box_moves_on, &endgame, &explore, &advisors, &dual))
        return NULL;
    if (box_moves_on < 0 || box_moves_on > 3) {
        PyErr_SetString(PyExc_ValueError, "box_moves: 0 to 3");
        return NULL;
    }
    if (endgame < 0 || endgame > ENDGAME_PUSHES_MAX) {
        PyErr_Format(PyExc_ValueError, "endgame: 0 to %d", ENDGAME_PUSHES_MAX);
        return NULL;
    }
    if (explore < 0 || explore > 100) {
        PyErr_SetString(PyExc_ValueError, "explore: 0 to 100");
        return NULL;
    }
    if (weighted < 0 || weighted > WEIGHTED_MAX) {
        PyErr_Format(PyExc_ValueError, "weighted: 0 to %d", WEIGHTED_MAX);
        return NULL;
    }
    if (packing < 0) {
        PyErr_SetString(PyExc_ValueError, "packing: 0 or more");
        return NULL;
    }
    if (forward_turns < 1 || forward_turns > TURNS_MAX || backward_turns < 1 || backward_turns > TURNS_MAX) {
        PyErr_Format(PyExc_ValueError, "turns: each 1 to %d", TURNS_MAX);
        return NULL;
    }
    if (trace != Py_None && !PyList_Check(trace)) {
        PyErr_SetString(PyExc_TypeError, "trace: a list or None");
        return NULL;
    }
    Search forward, backward;
    Targets forward_targets, backward_targets;
    memset(&forward, 0, sizeof forward);
    memset(&backward, 0, sizeof backward);
    memset(&forward_targets, 0, sizeof forward_targets);
    memset(&backward_targets, 0, sizeof backward_targets);
    int two_ends = backward_spec != Py_None;
    PyObject *result = NULL;
    uint16_t *start = NULL;
    if (!parse_targets(forward_spec, &forward_targets)) goto done;
    if (two_ends && (!PyTuple_Check(backward_spec) || !parse_targets(backward_spec, &backward_targets))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "backward: a tuple or None");
        goto done;
    }
    /* (Each end's nominal share sizes its caches; the two draw on the whole budget.) */
    size_t share = two_ends ? (size_t)budget / 2 : (size_t)budget;
    if (!prepare(&forward, width, &floor, &forward_targets, weight, packing, corrals, features, 0, share, box_sets,
                 patterns))
        goto done;
    forward.tunnels = tunnels && weight == 0;
    if (((goal_rooms && forward.groups) || box_macros || box_moves_on) && weight == 0) {
        size_t states = (size_t)forward.size * 4;
        forward.mq_state = calloc(states, sizeof(int));
        forward.mq_parent = calloc(states, sizeof(int));
        forward.mq_visit = calloc(states, sizeof(uint32_t));
        forward.mq_reach = calloc((size_t)forward.size, sizeof(uint32_t));
        forward.mq_whole = calloc((size_t)forward.size, sizeof(uint32_t));
        forward.mq_done = calloc(states, sizeof(uint32_t));
        if (!forward.mq_state || !forward.mq_parent || !forward.mq_visit || !forward.mq_reach || !forward.mq_whole
            || !forward.mq_done) {
            PyErr_NoMemory();
            goto done;
        }
        forward.goal_macros = goal_rooms && forward.groups;
        forward.box_macros = box_macros;
        forward.box_moves = box_moves_on;
        forward.advisors = advisors;
        forward.dual = advisors && dual && box_moves_on > 1 && features;
        /* (Box moves take in every square a box reaches: no other macro.) */
        if (box_moves_on) forward.tunnels = forward.goal_macros = forward.box_macros = 0;
    }
    if (plans && weight == 0 && forward.groups && !plan_rooms(&forward)) goto done;
    if (probes > 0 && probe_limit > 0) {
        /* The prober: greedy, PI-corrals, nothing else; no packing penalty,
         * so that its bound is 0 exactly when its boxes are all on goals. */
        forward.prober = calloc(1, sizeof(Search));
        forward.probe_cells = calloc((size_t)forward.boxes, sizeof(uint16_t));
        forward.probe_set = calloc((size_t)forward.boxes, sizeof(uint16_t));
        forward.probe_trial = calloc((size_t)forward.boxes, sizeof(uint16_t));
        if (!forward.prober || !forward.probe_cells || !forward.probe_set || !forward.probe_trial) {
            PyErr_NoMemory();
            goto done;
        }
        if (!prepare(forward.prober, width, &floor, &forward_targets, 0, 0, 1, 0, 0, PROBE_BUDGET, 0, 0)) goto done;
        forward.probe_every = probes;
        forward.probe_limit = probe_limit;
        /* (A*'s proofs take no endgame: the prober's pushes are not the fewest.) */
        if (weight == 0) forward.endgame_pushes = endgame;
    }
    if (two_ends && !prepare(&backward, width, &floor, &backward_targets, 0, packing, 0, features, 1, share, 0, 0))
        goto done;
    if (two_ends) {
        /* The two ends draw on the whole budget together. */
        forward.pool_own += backward.pool_own;
        backward.pool = &forward.pool_own;
        forward.pool_budget = backward.pool_budget = (size_t)budget;
    }
    keep_duals_init(&forward);
    if (two_ends) keep_duals_init(&backward);
    start_stamps(&forward, stamps);
    start_stamps(&backward, stamps);
    if (forward.prober != NULL) start_stamps(forward.prober, stamps);
    if (square_floods) {
        /* (No board has a box yet: their rows are never read from here on.) */
        forward.row_bits = backward.row_bits = 0;
        if (forward.prober != NULL) forward.prober->row_bits = 0;
    }
    if (weight == 0) {
        forward.novelty = backward.novelty = novelty;
        forward.weighted = backward.weighted = weighted;
        /* (A* takes none: a node taken out of turn would break its proofs.) */
        forward.explore = backward.explore = explore;
        forward.draws = 0x9E3779B97F4A7C15ULL;
        backward.draws = 0xD1B54A32D192ED03ULL;
    }
    int n = forward.boxes;
    if (PyList_GET_SIZE(boxes) != n || player <= 0 || player >= forward.size || !forward.floor[player] ||
        (two_ends && backward.boxes != n)) {
        PyErr_SetString(PyExc_ValueError, "the boxes do not match the goals, or the player is off the floor");
        goto done;
    }
    start = calloc((size_t)n, sizeof(uint16_t));
    int *scratch = calloc((size_t)n, sizeof(int));
    if (start == NULL || scratch == NULL) {
        free(scratch);
        PyErr_NoMemory();
        goto done;
    }
    int ok = int_list(boxes, scratch, n, "boxes");
    for (int i = 0; ok && i < n; i++) {
        if (scratch[i] <= 0 || scratch[i] >= forward.size || !forward.floor[scratch[i]]) {
            PyErr_SetString(PyExc_ValueError, "a box lies off the floor");
            ok = 0;
        }
        start[i] = (uint16_t)scratch[i];
    }
    free(scratch);
    if (!ok) goto done;
    Outcome outcome = OUT_OF_MEMORY;
    int roots_stored = add_root(&forward, start, player);
    if (two_ends && roots_stored) {
        /* The solved position, with the player in each area he may have
         * finished in: one root per area of free squares around the goals. */
        for (int i = 0; i < n; i++) occupy(&backward, backward.occupant, forward.goal_cell[i], 1);
        make_room(&backward.area_stamp, backward.area, (size_t)backward.size, (uint32_t)backward.size + 1);
        uint32_t base = ++backward.area_stamp;
        for (int k = 0; k < backward.floor_count && roots_stored; k++) {
            int cell = backward.floor_cells[k];
            if (backward.occupant[cell] || backward.area[cell] > base) continue;
            backward.area_stamp++;
            flood(&backward, cell, backward.area, backward.area_stamp);
            for (int i = 0; i < n; i++) occupy(&backward, backward.occupant, forward.goal_cell[i], 0);
            for (int i = 0; i < n; i++) start[i] = (uint16_t)forward.goal_cell[i];
            roots_stored = add_root(&backward, start, cell);
            for (int i = 0; i < n; i++) occupy(&backward, backward.occupant, forward.goal_cell[i], 1);
        }
        for (int i = 0; i < n; i++) occupy(&backward, backward.occupant, forward.goal_cell[i], 0);
    }
    int64_t found = -1, met = -1;
    int side = 0;
    forward.last_node = -1;
    forward.best_priority = INT32_MAX;
    if (roots_stored)
        outcome = run(&forward, two_ends ? &backward : NULL, forward_turns, backward_turns, check,
                      trace == Py_None ? NULL : trace, &found, &met, &side);
    if (outcome == ERROR) goto done;
    const char *status = outcome == EXHAUSTED    ? "exhausted"
                         : outcome == INCOMPLETE ? "incomplete"
                         : outcome == OUT_OF_MEMORY ? "memory"
                                                    : "solved";
    PyObject *pushes = PyList_New(0);
    if (pushes == NULL) goto done;
    if (outcome == FOUND || outcome == MET) {
        /* The forward half's pushes up to the meeting, then the backward half's. */
        int64_t forward_node = side == 0 ? found : met;
        int64_t backward_node = side == 0 ? met : found;
        ok = append_moves(&forward, forward_node, pushes) && PyList_Reverse(pushes) == 0;
        if (ok && outcome == FOUND && side == 0 && forward.endgame_node >= 0) {
            /* The prober's pushes that finished the position found. */
            PyObject *tail = PyList_New(0);
            ok = tail != NULL && append_moves(forward.prober, forward.endgame_node, tail) && PyList_Reverse(tail) == 0 &&
                 PyList_SetSlice(pushes, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, tail) == 0;
            Py_XDECREF(tail);
        }
        if (ok && outcome == MET) ok = append_moves(&backward, backward_node, pushes);
        if (!ok) {
            Py_DECREF(pushes);
            goto done;
        }
    }
    int64_t expanded = forward.expanded + backward.expanded;
    int64_t generated = forward.generated + backward.generated;
    result = Py_BuildValue("(sNLL)", status, pushes, (long long)expanded, (long long)generated);
done:
    free(start);
    release(&forward);
    release(&backward);
    release_targets(&forward_targets);
    release_targets(&backward_targets);
    PyBuffer_Release(&floor);
    return result;
}

static const char blocked_goals_doc[] =
    "blocked_goals(width, floor, forward, boxes) -> (out of layer order, blocked)\n\n"
    "The packing penalties of the position with boxes on ``boxes`` (any player square): the\n"
    "boxes filled out of the goal rooms' layer order, and with packing plans the rooms' empty\n"
    "goals that no order can fill any more (search's ``plans``; -1: a room of over 64 goals,\n"
    "which keeps to the layers). forward as for search.";

static PyObject *blocked_goals(PyObject *Py_UNUSED(self), PyObject *args) {
    int width;
    Py_buffer floor;
    PyObject *spec, *boxes, *result = NULL;
    if (!PyArg_ParseTuple(args, "iy*O!O!", &width, &floor, &PyTuple_Type, &spec, &PyList_Type, &boxes)) return NULL;
    Search s;
    Targets targets;
    memset(&s, 0, sizeof s);
    if (!parse_targets(spec, &targets)) {
        PyBuffer_Release(&floor);
        return NULL;
    }
    if (!prepare(&s, width, &floor, &targets, 0, 1, 0, 0, 0, (size_t)1 << 26, 0, 0)) goto done;
    Py_ssize_t count = PyList_GET_SIZE(boxes);
    for (Py_ssize_t i = 0; i < count; i++) {
        long cell = PyLong_AsLong(PyList_GET_ITEM(boxes, i));
        if (cell == -1 && PyErr_Occurred()) goto done;
        if (cell <= 0 || cell >= s.size || !s.floor[cell]) {
            PyErr_SetString(PyExc_ValueError, "a box lies off the floor");
            goto done;
        }
        occupy(&s, s.occupant, cell, (int)i + 1);
    }
    int layered = out_of_order(&s);
    int blocked = 0;
    if (s.groups) {
        if (!plan_rooms(&s)) goto done;
        blocked = s.plans ? out_of_order(&s) : -1;
    }
    result = Py_BuildValue("(ii)", layered, blocked);
done:
    release(&s);
    release_targets(&targets);
    PyBuffer_Release(&floor);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, search_doc},
    {"blocked_goals", blocked_goals, METH_VARARGS, blocked_goals_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The Sokoban solver's compiled search core (see core.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
