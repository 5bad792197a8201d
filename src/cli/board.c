/* board.c - the board in the terminal: the ruleset's own picture
 * (kemet_board_template) where it fits, and a compact form drawn from the
 * board's description (kemet_art) where it does not: every hole as its
 * number and what stands on it, five columns wide, rows and columns kept
 * in the order of the ancient board. A board too tall for that within the
 * terminal's rows (the 58 holes stand in columns of fifteen) is drawn
 * along its tracks instead: each side's holes in the order its pieces run
 * them, ten to a row.
 */
#include "cli.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Whether to colour what goes to `out`: a terminal, not "dumb", and no
 * NO_COLOR in the environment (no-color.org). */
static bool colour(FILE *out) {
    const char *term = getenv("TERM"), *no = getenv("NO_COLOR");
    return isatty(fileno(out)) && !(no && *no) &&
           !(term && !strcmp(term, "dumb"));
}

/* player 1 bold yellow, player 2 bold cyan, the last move reversed */
static const char *const ink[2] = {"\033[1;33m", "\033[1;36m"};

int cli_columns(FILE *out) {
    const char *c = getenv("COLUMNS");
    char *end;
    long n = c && *c ? strtol(c, &end, 10) : 0;
    if (n >= 20 && n <= 1000 && *end == '\0')
        return (int)n;
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 &&
        ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

int cli_rows(FILE *out) {
    const char *c = getenv("LINES");
    char *end;
    long n = c && *c ? strtol(c, &end, 10) : 0;
    if (n >= 10 && n <= 1000 && *end == '\0')
        return (int)n;
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 &&
        ws.ws_row >= 10)
        return ws.ws_row;
    return 24;
}

int cli_text_width(FILE *out) {
    int w = cli_columns(out);
    return w < 80 ? w - 1 : 79;
}

/* The lines of the ruleset's picture. */
static int template_height(const char *t) {
    int n = 0;
    for (const char *s = t; *s; s++)
        n += *s == '\n' || (!s[1] && *s != '\n'); /* a last line unended */
    return n;
}

/* The widest line of the ruleset's picture, in characters. */
static int template_width(const char *t) {
    int w = 0, col = 0;
    for (; *t; t++) {
        if (*t == '\n') {
            col = 0;
            continue;
        }
        if (((unsigned char)*t & 0xC0) != 0x80)
            col++;
        if (col > w)
            w = col;
    }
    return w;
}

static void full(const kemet_rules *rules, const kemet_pos *pos, int mark,
                 FILE *out, bool ansi) {
    const kemet_info *info = kemet_rules_info(rules);
    for (const char *s = kemet_board_template(rules); *s; s++) {
        int cell;
        if (s[0] == '{' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' &&
            s[2] <= '9' && s[3] == '}') {
            cell = (s[1] - '0') * 10 + (s[2] - '0');
            int c[2];
            char txt[8] = "    ";
            kemet_board_cell(rules, pos, cell, c);
            if (c[0] + c[1] == 1) {
                char g = info->glyph[c[1] ? 1 : 0];
                if (cell == mark)
                    snprintf(txt, sizeof txt, "(%c) ", g);
                else
                    snprintf(txt, sizeof txt, " %c  ", g);
                if (ansi) {
                    fprintf(out, "%s%s%s\033[0m", ink[c[1] ? 1 : 0],
                            cell == mark ? "\033[7m" : "", txt);
                    s += 3;
                    continue;
                }
            } else if (c[0] + c[1] > 1) {
                snprintf(txt, sizeof txt, "%d%c%d%c", c[0] % 10, info->glyph[0],
                         c[1] % 10, info->glyph[1]);
            }
            fputs(txt, out);
            s += 3;
        } else {
            fputc(*s, out);
        }
    }
}

enum { CW = 5 }; /* a hole in the compact form: "NNcc " */

typedef struct spot {
    int row, col, hole; /* hole: index into the art */
} spot;

static int by_place(const void *a, const void *b) {
    const spot *x = a, *y = b;
    return x->row != y->row ? x->row - y->row : x->col - y->col;
}

/* Rows of `dy` units: 1 when two holes would overlap on one row. */
static bool overlap(const kemet_board_art *a, const int *col, double ymin,
                    double dy) {
    for (int i = 0; i < a->nholes; i++)
        for (int j = i + 1; j < a->nholes; j++)
            if (lround((a->hole[i].y - ymin) / dy) ==
                    lround((a->hole[j].y - ymin) / dy) &&
                abs(col[i] - col[j]) < CW)
                return true;
    return false;
}

enum { NCELL = 2 * KEMET_ART_HOLES };

/* Each cell's number as the players name it: player 1's square there,
 * else player 2's (a side only player 2 runs on), else the board's own
 * label. Where both run over every hole but the board falls in two
 * halves, left and right, each the nearer half of one side's run (Washburne:
 * the hounds' holes 1-29 on the right, the jackals' 1-29 on the left, 30
 * shared), each half carries its own side's numbers, as the picture
 * does. `by[c]` says whose number it is (0: the board's). */
typedef struct names {
    char lab[NCELL][4];
    int by[NCELL];
} names;

/* Player p's square on `cell`, or 0. */
static int square_of(const kemet_rules *rules, int p, int cell) {
    int sq = kemet_rules_info(rules)->squares;
    for (int k = 1; k <= sq; k++)
        if (kemet_square_cell(rules, p, k) == cell)
            return k;
    return 0;
}

/* Whether the holes nearer player 1's start than player 2's lie all on
 * one half of the board (left or right) and the others on the other. */
static bool halves(const kemet_rules *rules, const kemet_board_art *a) {
    int seen[2][2] = {{0}}; /* [owner][right] */
    for (int i = 0; i < a->nholes; i++) {
        const kemet_hole_art *h = &a->hole[i];
        int n1 = square_of(rules, 1, h->cell),
            n2 = square_of(rules, 2, h->cell);
        if (!n1 || !n2)
            return false;
        if (n1 != n2)
            seen[n1 > n2][h->x > a->w / 2]++;
    }
    return (seen[0][0] == 0 && seen[1][1] == 0 && seen[0][1] && seen[1][0]) ||
           (seen[0][1] == 0 && seen[1][0] == 0 && seen[0][0] && seen[1][1]);
}

static void name_cells(const kemet_rules *rules, const kemet_board_art *a,
                       names *nm) {
    const kemet_info *info = kemet_rules_info(rules);
    memset(nm, 0, sizeof *nm);
    for (int i = 0; i < a->nholes; i++) {
        const kemet_hole_art *h = &a->hole[i];
        if (h->cell > 0 && h->cell < NCELL)
            snprintf(nm->lab[h->cell], sizeof nm->lab[h->cell], "%.2s",
                     h->label);
    }
    if (halves(rules, a)) {
        for (int i = 0; i < a->nholes; i++) {
            int c = a->hole[i].cell;
            if (c <= 0 || c >= NCELL)
                continue;
            int n1 = square_of(rules, 1, c), n2 = square_of(rules, 2, c);
            snprintf(nm->lab[c], sizeof nm->lab[c], "%d",
                     (unsigned char)(n1 <= n2 ? n1 : n2));
            nm->by[c] = n1 <= n2 ? 1 : 2;
        }
        return;
    }
    for (int p = 2; p >= 1; p--) /* player 1's numbers win */
        for (int k = 1; k <= info->squares; k++) {
            int c = kemet_square_cell(rules, p, k);
            if (c > 0 && c < NCELL) {
                snprintf(nm->lab[c], sizeof nm->lab[c], "%d", (unsigned char)k);
                nm->by[c] = p;
            }
        }
}

static const char *lab(const names *nm, int cell) {
    return cell > 0 && cell < NCELL ? nm->lab[cell] : "?";
}

/* Appends " W" to the list buf unless it is there already. */
static void add_word(char *buf, size_t len, const char *w) {
    char key[48];
    snprintf(key, sizeof key, " %s,", w);
    size_t at = strlen(buf);
    char probe[512];
    snprintf(probe, sizeof probe, "%s,", buf);
    if (strstr(probe, key) || at + strlen(w) + 3 >= len)
        return;
    snprintf(buf + at, len - at, "%s %s", at ? "," : "", w);
}

/* The key to the compact forms, wrapped at `width`; the lines written. */
static int legend(const kemet_rules *rules, const kemet_board_art *a,
                  const names *nm, FILE *out, int width, bool ansi) {
    const kemet_info *info = kemet_rules_info(rules);
    char text[1024], signs[512] = "", marked[512] = "", safe[512] = "",
                     lines[256] = "", rivers[256] = "";
    int order[KEMET_ART_HOLES];
    bool theirs = false; /* some holes carry player 2's numbers */
    for (int i = 0; i < a->nholes; i++) {
        order[i] = i;
        int c = a->hole[i].cell;
        theirs |= c > 0 && c < NCELL && nm->by[c] == 2;
    }
    for (int i = 1; i < a->nholes; i++) /* by number, for the lists */
        for (int j = i; j > 0 && atoi(lab(nm, a->hole[order[j]].cell)) <
                                     atoi(lab(nm, a->hole[order[j - 1]].cell));
             j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int i = 0; i < a->nholes; i++) {
        const kemet_hole_art *h = &a->hole[order[i]];
        const char *l = lab(nm, h->cell);
        char w[48];
        if (h->mark[0]) {
            snprintf(w, sizeof w, "%s\u00a0%s", l, h->mark); /* no break */
            add_word(signs, sizeof signs, w);
        }
        if (h->flags & KEMET_ART_MARKED)
            add_word(marked, sizeof marked, l);
        if ((h->flags & KEMET_ART_SAFE) && !h->mark[0])
            add_word(safe, sizeof safe, l);
    }
    for (int i = 0; i < a->nlinks; i++) {
        const kemet_art_link *k = &a->link[i];
        char w[48];
        snprintf(w, sizeof w, "%s-%s", lab(nm, k->from), lab(nm, k->to));
        add_word(k->kind == KEMET_ART_RIVER ? rivers : lines,
                 k->kind == KEMET_ART_RIVER ? sizeof rivers : sizeof lines, w);
    }
    int at = snprintf(text, sizeof text,
                      "%c = %s, %c = %s; %s the piece last moved.",
                      info->glyph[0], info->player[0], info->glyph[1],
                      info->player[1], ansi ? "reversed:" : "lower case:");
    int sq = info->squares;
    bool mirror = sq > 1, same = true;
    for (int k = 1; k <= sq; k++) {
        int c2 = kemet_square_cell(rules, 2, k);
        mirror = mirror && c2 == kemet_square_cell(rules, 1, sq + 1 - k);
        same = same && c2 == kemet_square_cell(rules, 1, k);
    }
    if (theirs) {
        /* each side numbers its own holes: say which side is whose */
        int c1 = kemet_square_cell(rules, 1, 1);
        for (int i = 0; i < a->nholes; i++)
            if (a->hole[i].cell == c1)
                at += snprintf(text + at, sizeof text - (size_t)at,
                               " Each side numbers its own holes: %s'%s "
                               "on the %s.",
                               info->player[0],
                               cli_plural(info->player[0]) ? "" : "s",
                               a->hole[i].x > a->w / 2 ? "right" : "left");
    } else if (mirror) {
        at += snprintf(text + at, sizeof text - (size_t)at,
                       " The numbers are %s'%s squares; %s'%s square k is "
                       "%s'%s %d-k.",
                       info->player[0], cli_plural(info->player[0]) ? "" : "s",
                       info->player[1], cli_plural(info->player[1]) ? "" : "s",
                       info->player[0], cli_plural(info->player[0]) ? "" : "s",
                       sq + 1);
    } else if (!same) {
        at += snprintf(text + at, sizeof text - (size_t)at,
                       " The numbers are %s' squares.", info->player[0]);
    }
    const struct {
        const char *name, *list;
    } part[] = {{"Signs", signs},
                {"Marked holes", marked},
                {"Safe", safe},
                {"Lines", lines},
                {"Rivers", rivers}};
    for (size_t i = 0; i < sizeof part / sizeof *part; i++)
        if (part[i].list[0] && at < (int)sizeof text)
            at += snprintf(text + at, sizeof text - (size_t)at, " %s:%s.",
                           part[i].name, part[i].list);
    return cli_wrap(out, text, width, 2);
}

/* One hole of the compact forms, "NNcc": its number and what stands on
 * it, the piece last moved reversed (in colour) or in lower case. */
static void hole(const kemet_rules *rules, const kemet_pos *pos, int mark,
                 const names *nm, int cell, FILE *out, bool ansi) {
    const kemet_info *info = kemet_rules_info(rules);
    char what[3] = " .";
    int c[2];
    kemet_board_cell(rules, pos, cell, c);
    int who = c[0] ? 0 : 1, k = c[0] + c[1];
    if (c[0] && c[1])
        snprintf(what, sizeof what, "%c%c", info->glyph[0], info->glyph[1]);
    else if (k > 1)
        snprintf(what, sizeof what, "%d%c", k % 10, info->glyph[who]);
    else if (k == 1) /* the piece last moved in lower case */
        snprintf(what, sizeof what, " %c",
                 cell == mark && !ansi
                     ? tolower((unsigned char)info->glyph[who])
                     : info->glyph[who]);
    fprintf(out, "%2s", lab(nm, cell));
    if (k && ansi)
        fprintf(out, "%s%s%s\033[0m", ink[who], cell == mark ? "\033[7m" : "",
                what);
    else
        fputs(what, out);
}

/* The rows of the board's own layout: each hole's row and column in
 * sp[], sorted by place; the number of rows. */
static int layout(const kemet_board_art *a, int *col, spot *sp) {
    /* columns: the nearest two holes of one row CW characters apart */
    double xmin = a->hole[0].x, ymin = a->hole[0].y, ymax = ymin, ux = 0;
    for (int i = 0; i < a->nholes; i++) {
        const kemet_hole_art *h = &a->hole[i];
        xmin = fmin(xmin, h->x);
        ymin = fmin(ymin, h->y);
        ymax = fmax(ymax, h->y);
        for (int j = 0; j < i; j++) {
            const kemet_hole_art *g = &a->hole[j];
            double dx = fabs(h->x - g->x);
            if (fabs(h->y - g->y) < fmin(h->r, g->r) && dx > 0.5 &&
                (ux == 0 || dx < ux))
                ux = dx;
        }
    }
    ux = ux > 0 ? ux / CW : (a->w > 0 ? a->w / 60 : 1);
    for (int i = 0; i < a->nholes; i++)
        col[i] = (int)lround((a->hole[i].x - xmin) / ux);
    /* rows: as few as keep every hole clear of the others */
    double dy = ymax > ymin ? ymax - ymin : 1;
    while (dy > 0.5 && overlap(a, col, ymin, dy))
        dy *= 0.97;
    for (int i = 0; i < a->nholes; i++)
        sp[i] = (spot){(int)lround((a->hole[i].y - ymin) / dy), col[i], i};
    qsort(sp, (size_t)a->nholes, sizeof *sp, by_place);
    int rows = 0;
    for (int i = 0; i < a->nholes; i++)
        rows += i == 0 || sp[i].row != sp[i - 1].row;
    return rows;
}

/* The board along its tracks: player 1's holes, the shared ones, player
 * 2's, each in its own numbers and in the order its pieces run them, ten
 * to a row (five where `width` is too narrow for ten). The lines
 * written. */
static int tracks(const kemet_rules *rules, const kemet_pos *pos, int mark,
                  const kemet_board_art *a, const names *nm, spot *sp,
                  FILE *out, int width, bool ansi) {
    const kemet_info *info = kemet_rules_info(rules);
    /* sp[]: row = the group (0 player 1's, 1 shared, 2 player 2's, 3 the
       rest), col = the number in it */
    for (int i = 0; i < a->nholes; i++) {
        int c = a->hole[i].cell;
        int n1 = square_of(rules, 1, c), n2 = square_of(rules, 2, c);
        int g = n1 && n1 == n2 ? 1 : n1 && (!n2 || n1 < n2) ? 0 : n2 ? 2 : 3;
        int k = g == 2 ? n2 : g == 3 ? atoi(lab(nm, c)) : n1;
        sp[i] = (spot){g, k, i};
    }
    qsort(sp, (size_t)a->nholes, sizeof *sp, by_place);
    const char *name[4] = {info->player[0], "Shared", info->player[1],
                           "Others"};
    int named = 0, lines = 0;
    for (int g = 0; g < 4; g++)
        if ((int)strlen(name[g]) > named)
            named = (int)strlen(name[g]);
    int per = (width - 2 - named) / CW >= 10 ? 10 : 5;
    for (int i = 0, in_row = 0; i < a->nholes; i++) {
        bool first = i == 0 || sp[i].row != sp[i - 1].row;
        if (first || in_row == per) {
            if (i) {
                fputc('\n', out);
                lines++;
            }
            fprintf(out, "  %-*s", named, first ? name[sp[i].row] : "");
            in_row = 0;
        }
        fputc(' ', out);
        hole(rules, pos, mark, nm, a->hole[sp[i].hole].cell, out, ansi);
        in_row++;
    }
    fputc('\n', out);
    return lines + 1;
}

/* The compact form: the board's own layout where it takes at most `rows`
 * lines with its key, else its tracks; 0 when the board has no
 * description, else the lines written. */
static int compact(const kemet_rules *rules, const kemet_pos *pos, int mark,
                   FILE *out, int width, int rows, bool ansi) {
    kemet_board_art *a = malloc(sizeof *a);
    int *col = a ? malloc(KEMET_ART_HOLES * sizeof *col) : NULL;
    spot *sp = col ? malloc(KEMET_ART_HOLES * sizeof *sp) : NULL;
    names *nm = sp ? malloc(sizeof *nm) : NULL;
    if (!nm || kemet_art(rules, a) <= 0) {
        free(a);
        free(col);
        free(sp);
        free(nm);
        return 0;
    }
    name_cells(rules, a, nm);
    int lines, key = 0;
    FILE *null = fopen("/dev/null", "w");
    if (null) { /* the key's lines, counted */
        key = legend(rules, a, nm, null, width, ansi);
        fclose(null);
    }
    if (layout(a, col, sp) + key > rows) {
        lines = tracks(rules, pos, mark, a, nm, sp, out, width, ansi);
    } else {
        lines = 0;
        for (int i = 0, at = 0; i < a->nholes; i++) {
            if (i == 0 || sp[i].row != sp[i - 1].row) {
                if (i) {
                    fputc('\n', out);
                    lines++;
                }
                fputs("  ", out);
                at = 0;
            }
            fprintf(out, "%*s", sp[i].col - at, "");
            hole(rules, pos, mark, nm, a->hole[sp[i].hole].cell, out, ansi);
            at = sp[i].col + 4;
        }
        fputc('\n', out);
        lines++;
    }
    lines += legend(rules, a, nm, out, width, ansi);
    free(a);
    free(col);
    free(sp);
    free(nm);
    return lines;
}

/* The board drawn in `form` (CLI_BOARD_FULL or _COMPACT) at `width`
 * columns, the compact form within `rows` lines where it can be; the lines
 * written. */
static int draw(const kemet_rules *rules, const kemet_pos *pos, int mark,
                FILE *out, int form, int width, int rows, bool ansi) {
    if (form == CLI_BOARD_COMPACT) {
        int n = compact(rules, pos, mark, out, width, rows, ansi);
        if (n)
            return n;
    }
    full(rules, pos, mark, out, ansi);
    return template_height(kemet_board_template(rules));
}

void cli_board_as(const kemet_rules *rules, const kemet_pos *pos, int mark,
                  FILE *out, int form) {
    if (form == CLI_BOARD_AUTO)
        form = template_width(kemet_board_template(rules)) < cli_columns(out)
                   ? CLI_BOARD_FULL
                   : CLI_BOARD_COMPACT;
    draw(rules, pos, mark, out, form, cli_text_width(out), 1000, colour(out));
}

void cli_board(const kemet_rules *rules, const kemet_pos *pos, int mark,
               FILE *out) {
    cli_board_as(rules, pos, mark, out, CLI_BOARD_AUTO);
}

int cli_board_form(const kemet_rules *rules, int form, FILE *out, int rows) {
    const char *t = kemet_board_template(rules);
    bool wide = template_width(t) < cli_columns(out);
    int tall = template_height(t);
    if (form == CLI_BOARD_AUTO)
        form = wide && tall <= rows / 2 ? CLI_BOARD_FULL : CLI_BOARD_COMPACT;
    if (form == CLI_BOARD_FULL && tall > rows - CLI_SCREEN_ROOM)
        form = CLI_BOARD_COMPACT;
    return form;
}

int cli_board_in(const kemet_rules *rules, const kemet_pos *pos, int mark,
                 FILE *out, int form, int rows) {
    return draw(rules, pos, mark, out, cli_board_form(rules, form, out, rows),
                cli_text_width(out), rows - CLI_SCREEN_ROOM, colour(out));
}
