/* art.c - every board described for drawing (kemet_art), so that a
 * front end draws any ruleset's board from data: where each hole lies,
 * its shape and size, its label and mark, whose home it is, and the lines
 * and rivers between holes. Senet's board and the 58-holes board are
 * built-in descriptions here; the boards read from board files are laid
 * out from their pictures. Units are those of an SVG view box.
 */
#include "track.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static kemet_hole_art *add_hole(kemet_board_art *a, int cell, double x,
                                double y, double r, int shape) {
    if (a->nholes >= KEMET_ART_HOLES || cell <= 0)
        return NULL;
    kemet_hole_art *h = &a->hole[a->nholes++];
    *h = (kemet_hole_art){.cell = cell, .x = x, .y = y, .r = r, .shape = shape};
    return h;
}

static void add_link(kemet_board_art *a, int from, int to, int kind,
                     double bend) {
    if (a->nlinks < KEMET_ART_LINKS && from > 0 && to > 0)
        a->link[a->nlinks++] = (kemet_art_link){from, to, kind, bend};
}

/* Senet: three rows of ten squares, the middle row run right to left;
 * squares 15 and 26-30 carry their signs. */
void kmt_art_senet(const kemet_rules *r, kemet_board_art *a) {
    static const char *const sign[31] = {
        [15] = "☥",   [26] = "nfr", [27] = "≈≈",
        [28] = "III", [29] = "II",  [30] = "I"};
    kmt_art_senet_signs(r, a, sign);
}

void kmt_art_senet_signs(const kemet_rules *r, kemet_board_art *a,
                         const char *const sign[31]) {
    a->w = 656;
    a->h = 216;
    a->frame = KEMET_ART_FRAME_RECT;
    for (int sq = 1; sq <= 30; sq++) {
        int row = (sq - 1) / 10, k = (sq - 1) % 10;
        int col = row == 1 ? 9 - k : k;
        kemet_hole_art *h =
            add_hole(a, kemet_square_cell(r, 1, sq), 36 + col * 64,
                     44 + row * 64, 28, KEMET_ART_SQUARE);
        if (!h)
            continue;
        snprintf(h->label, sizeof h->label, "%d", sq);
        if (sign[sq])
            snprintf(h->mark, sizeof h->mark, "%s", sign[sq]);
    }
}

/* The 58-holes board, as the palm-shaped boards of the Middle Kingdom:
 * each side's holes 1-10 down the centre, 11-25 up the outer edge, 26-29
 * round the top to the Shen (the common hole 30); the lines 6-20 and 8-10
 * on both sides. */
static void h58_at(int side, int hole, double *x, double *y) {
    const double cx = 220, m = side == 0 ? 1 : -1;
    if (hole <= 10) {
        *x = cx + m * 45;
        *y = 170 + (hole - 1) * 30;
    } else if (hole <= 25) {
        *x = cx + m * 165;
        *y = 534 - (hole - 11) * 26;
    } else if (hole <= 29) {
        double t = (hole - 25) * 3.14159265358979 / 10;
        *x = cx + m * 165 * cos(t);
        *y = 170 - 130 * sin(t);
    } else {
        *x = cx;
        *y = 40;
    }
}

void kmt_art_h58(const kemet_rules *r, kemet_board_art *a) {
    uint64_t marks;
    uint8_t line[30];
    kmt_h58_drawing(r, &marks, line);
    kmt_art_palm(r, a, marks, line);
}

void kmt_art_palm(const kemet_rules *r, kemet_board_art *a, uint64_t marks,
                  const uint8_t line[30]) {
    a->w = 440;
    a->h = 575;
    a->frame = KEMET_ART_FRAME_PALM;
    for (int side = 0; side < 2; side++) {
        for (int hole = 1; hole <= 29; hole++) {
            double x, y;
            h58_at(side, hole, &x, &y);
            /* player 1's holes are its path squares 1-29; player 2's
             * side is its own path 1-29 too */
            kemet_hole_art *h =
                add_hole(a, kemet_square_cell(r, side + 1, hole), x, y, 11,
                         KEMET_ART_ROUND);
            if (!h)
                continue;
            snprintf(h->label, sizeof h->label, "%d", hole);
            if (marks & KMT_BIT(hole))
                h->flags |= KEMET_ART_MARKED;
        }
        /* the lines the rules have; 8-10 (holes close together) bowed */
        for (int from = 1; from < 30; from++) {
            int to = line[from];
            if (!to || (line[to] == from && to < from))
                continue;
            bool near = abs(to - from) < 5;
            add_link(a, kemet_square_cell(r, side + 1, from),
                     kemet_square_cell(r, side + 1, to), KEMET_ART_LINE,
                     near ? (side == 0 ? -28 : 28) : 0);
        }
    }
    double x, y;
    h58_at(0, 30, &x, &y);
    /* The Shen is cell 30 of the board (between the sides' 1-29 and
     * 31-59), drawn even where no path reaches it (Chien et Chacal). */
    int apex = kemet_square_cell(r, 1, 30);
    kemet_hole_art *h =
        add_hole(a, apex ? apex : 30, x, y, 20, KEMET_ART_ROUND);
    if (h)
        snprintf(h->label, sizeof h->label, "Shen");
}

/* The holes of a board laid out from a picture, made as large as their
 * spacing allows (a third of the way to the nearest hole, 14 to 22
 * units: on a phone a hole stays large enough to read and to tap), and
 * the view box drawn tight round them: the picture's words and margins
 * take no room on the screen. */
static void fit_holes(kemet_board_art *a) {
    if (a->nholes == 0)
        return;
    double near = 1e9, x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (int i = 0; i < a->nholes; i++)
        for (int j = i + 1; j < a->nholes; j++) {
            double d =
                hypot(a->hole[i].x - a->hole[j].x, a->hole[i].y - a->hole[j].y);
            near = d < near ? d : near;
        }
    double r = near * 0.35;
    r = r < 14 ? 14 : r > 22 ? 22 : r;
    for (int i = 0; i < a->nholes; i++) {
        kemet_hole_art *h = &a->hole[i];
        h->r = r;
        x0 = h->x < x0 ? h->x : x0;
        y0 = h->y < y0 ? h->y : y0;
        x1 = h->x > x1 ? h->x : x1;
        y1 = h->y > y1 ? h->y : y1;
    }
    /* the frame's border and a little room; a Sun's rays reach further */
    bool sun = false;
    for (int i = 0; i < a->nholes; i++)
        sun |= strcmp(a->hole[i].mark, "☀") == 0;
    const double margin = sun ? r * 1.6 + 10 : r + 12;
    for (int i = 0; i < a->nholes; i++) {
        a->hole[i].x += margin - x0;
        a->hole[i].y += margin - y0;
    }
    a->w = x1 - x0 + 2 * margin;
    a->h = y1 - y0 + 2 * margin;
}

/* A board file's board: each hole where its slot {NN} stands in the
 * picture (a character 9 units wide, a line 34 high), with the file's
 * lines, rivers, Suns, Ankhs, marked holes and home boxes. */
void kmt_art_file(const kemet_rules *r, kemet_board_art *a) {
    const kmt_board *b = &((const track *)r->data)->b;
    a->frame = KEMET_ART_FRAME_RECT;
    int row = 0, col = 0;
    for (const char *p = b->picture; *p; p++) {
        if (*p == '\n') {
            row++;
            col = 0;
            continue;
        }
        if (*p != '{') {
            col++;
            continue;
        }
        const char *q = p + 1;
        while (*q == ' ')
            q++;
        int n = 0, digits = 0;
        while (*q >= '0' && *q <= '9' && digits < 3) {
            n = n * 10 + (*q++ - '0');
            digits++;
        }
        if (!digits || *q != '}' || n < 1 || n > b->holes) {
            col++;
            continue;
        }
        int len = (int)(q - p) + 1;
        double x = 30 + (col + len / 2.0) * 9, y = 34 + row * 34;
        kemet_hole_art *h = add_hole(a, n, x, y, 14, KEMET_ART_ROUND);
        if (h) {
            snprintf(h->label, sizeof h->label, "%d", n);
            int f = b->flags[n];
            if (f & KMT_BOARD_SUN)
                snprintf(h->mark, sizeof h->mark, "☀");
            else if (f & KMT_BOARD_ANKH)
                snprintf(h->mark, sizeof h->mark, "☥");
            if (f & KMT_BOARD_MARK)
                h->flags |= KEMET_ART_MARKED;
            if (f & (KMT_BOARD_SAFE | KMT_BOARD_SUN | KMT_BOARD_ANKH))
                h->flags |= KEMET_ART_SAFE;
            for (int pl = 0; pl < 2; pl++)
                for (int i = 0; i < b->nhome[pl]; i++)
                    if (b->home[pl][i] == n)
                        h->home = (uint8_t)(pl + 1);
        }
        col += len;
        p = q;
    }
    for (int n = 1; n <= b->holes; n++) {
        if (b->line[n] > n)
            add_link(a, n, b->line[n], KEMET_ART_LINE, 0);
        int e = b->river[n]; /* once per river, whichever end holds it */
        if (e && (e > n || b->river[e] != n))
            add_link(a, n, e, KEMET_ART_RIVER, 0);
    }
    fit_holes(a);
}

int kemet_art(const kemet_rules *rules, kemet_board_art *out) {
    if (!rules || !out)
        return KEMET_EMISUSE;
    memset(out, 0, sizeof *out);
    if (!rules->rs->art)
        return KEMET_ERULESET;
    rules->rs->art(rules, out);
    return out->nholes;
}
