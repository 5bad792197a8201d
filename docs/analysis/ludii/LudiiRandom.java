/* LudiiRandom.java - uniform random games of Ludii rulesets, summed up in
 * the figures kemet's report uses, so they can be set beside `kemet sim`'s.
 *
 * Built against Ludii's classes (see README.md here); not part of kemet's
 * build. Usage:
 *   java -cp CLASSES:. LudiiRandom --game 'Senet.lud' --ruleset NAME...
 *        [--lud FILE] [--edits FILE] [--write FILE] [--games N] [--seed S]
 *        [--cap TURNS] [--skip PHASE,...] [--label TEXT] [--header]
 * --ruleset may be repeated (one line each); --game names a .lud among
 * Ludii's resources, --lud a file instead;
 * --edits applies a list of exact text replacements to the text first
 * (format below) and --write keeps the edited text; --skip names phases
 * left out of the turns and of the branching factor (default Opening).
 *
 * A turn is a mover's run of moves. A game is stopped before a turn would
 * begin once it has played --cap turns (default 1000). Each game i has its
 * own generators, seeded from --seed and i: the dice (Ludii's context
 * generator) and the choice among the legal moves, uniform.
 *
 * Prints one CSV line a ruleset (with --header, the names first). The figures follow
 * kemet's definitions (src/lib/tools/metrics.c): shares with Wilson's 95%
 * interval, means with +-1.96 standard errors; player 1 is the role Ludii
 * calls P1 at the end (its win counted by the role that won); the Ludii
 * AdvantageP1 column counts the agent who began as P1 instead, which is
 * what Ludii's own metric reports when an opening swaps the players.
 *
 * Edits file: lines starting with '#' are comments; a block is
 *   --- find [N]        (the text must occur exactly N times, default 1)
 *   <text>
 *   --- replace
 *   <text>
 *   --- end
 * where any run of white space in the found text matches any run of white
 * space in the game's text.
 *
 * "choices" is the mean number of legal moves over the states that offer
 * more than one, pooled over the games (kemet's Choices): unlike the
 * branching factor it does not depend on how many one-move states (a
 * throw, a forced pass) a program's move model has.
 */
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.rng.core.source64.SplitMix64;

import compiler.Compiler;
import game.Game;
import main.collections.FastArrayList;
import main.grammar.Description;
import main.grammar.Report;
import main.options.Ruleset;
import main.options.UserSelections;
import other.context.Context;
import other.move.Move;
import other.trial.Trial;

public final class LudiiRandom {
    private static final long MAX_MOVES = 200_000; /* a runaway game's guard */

    public static void main(String[] args) throws IOException {
        String gameName = null, ludFile = null, editsFile = null, writeFile = null;
        List<String> rulesets = new ArrayList<>();
        String label = "";
        long games = 1000, seed = 1;
        int cap = 1000;
        boolean header = false;
        Set<String> skip = new HashSet<>(Arrays.asList("Opening"));
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--header")) {
                header = true;
                continue;
            }
            if (i + 1 >= args.length)
                fail("missing value after " + a);
            String v = args[++i];
            switch (a) {
            case "--game": gameName = v; break;
            case "--lud": ludFile = v; break;
            case "--edits": editsFile = v; break;
            case "--write": writeFile = v; break;
            case "--ruleset": rulesets.add(v); break;
            case "--label": label = v; break;
            case "--games": games = Long.parseLong(v); break;
            case "--seed": seed = Long.parseLong(v); break;
            case "--cap": cap = Integer.parseInt(v); break;
            case "--skip": skip = new HashSet<>(Arrays.asList(v.split(","))); break;
            default: fail("unknown option " + a);
            }
        }
        if ((gameName == null) == (ludFile == null) || rulesets.isEmpty() || games < 2)
            fail("usage: --game NAME.lud | --lud FILE, --ruleset NAME..., --games N >= 2");

        String text = ludFile != null ? Files.readString(Paths.get(ludFile))
                                      : resource(gameName);
        if (editsFile != null)
            text = applyEdits(text, Files.readAllLines(Paths.get(editsFile)), editsFile);
        if (writeFile != null)
            Files.writeString(Paths.get(writeFile), text);
        if (header)
            System.out.println("label,game,ruleset,edits,games,seed,cap,turns_mean,turns_lo,"
                               + "turns_hi,turns_median,p1_wins,p2_wins,draws,stopped,"
                               + "p1_share,p1_lo,p1_hi,p2_share,p2_lo,p2_hi,completion,"
                               + "completion_lo,completion_hi,drawishness,drawishness_lo,"
                               + "drawishness_hi,balance,balance_lo,balance_hi,branching,"
                               + "branching_lo,branching_hi,choices,choices_lo,choices_hi,"
                               + "ludii_advantage_p1,seconds");
        for (String name : rulesets)
            run(load(text, name), label, gameName != null ? gameName : ludFile, name,
                editsFile == null ? "" : editsFile, games, seed, cap, skip);
    }

    /* Plays the games and prints their line. */
    static void run(Game game, String label, String source, String rulesetName, String edits,
                    long games, long seed, int cap, Set<String> skip) {
        long t0 = System.nanoTime();
        double[] turns = new double[(int)games], branching = new double[(int)games];
        double[] choiceSum = new double[(int)games], decisions = new double[(int)games];
        long[] wins = new long[3];
        long draws = 0, stopped = 0, agentP1 = 0;
        String[] phaseNames = Arrays.stream(game.rules().phases()).map(p -> p.name())
                                  .toArray(String[]::new);
        for (int g = 0; g < games; g++) {
            long s = mix(seed, g);
            Context ctx = new Context(game, new Trial(game));
            ctx.rng().restoreState(new SplitMix64(s).saveState());
            game.start(ctx);
            SplittableRandom pick = new SplittableRandom(mix(s, 0x6b656d6574L));
            int t = 0, last = 0;
            long states = 0, moves = 0;
            double sum = 0;
            boolean stop = false;
            while (!ctx.trial().over()) {
                int mover = ctx.state().mover();
                FastArrayList<Move> legal = game.moves(ctx).moves();
                if (!skip.contains(phaseNames[ctx.state().currentPhase(mover)])) {
                    if (mover != last) {
                        if (t >= cap) {
                            stop = true;
                            break;
                        }
                        t++;
                        last = mover;
                    }
                    states++;
                    sum += legal.size();
                    if (legal.size() > 1) {
                        decisions[g]++;
                        choiceSum[g] += legal.size();
                    }
                }
                if (++moves > MAX_MOVES) {
                    stop = true;
                    break;
                }
                game.apply(ctx, legal.get(pick.nextInt(legal.size())));
            }
            turns[g] = t;
            branching[g] = states > 0 ? sum / states : Double.NaN;
            if (stop) {
                stopped++;
                continue;
            }
            int w = ctx.trial().status().winner();
            if (w == 1 || w == 2) {
                wins[w]++;
                if (ctx.state().playerToAgent(w) == 1)
                    agentP1++;
            } else
                draws++;
        }
        double secs = (System.nanoTime() - t0) / 1e9;

        double[] tm = meanInterval(turns), bf = meanInterval(branching);
        double[] ch = ratioInterval(choiceSum, decisions);
        double[] p1 = wilson(wins[1], games), p2 = wilson(wins[2], games);
        double[] dr = wilson(draws, games), done = wilson(games - stopped, games);
        double[] bal = balance(wins[1], wins[2], games);
        System.out.println(String.join(",", csv(label), csv(source), csv(rulesetName), csv(edits),
                                       "" + games, "" + seed, "" + cap, f(tm[0]), f(tm[1]),
                                       f(tm[2]), f(median(turns)), "" + wins[1], "" + wins[2],
                                       "" + draws, "" + stopped, f(p1[0]), f(p1[1]), f(p1[2]),
                                       f(p2[0]), f(p2[1]), f(p2[2]), f(done[0]), f(done[1]),
                                       f(done[2]), f(dr[0]), f(dr[1]), f(dr[2]), f(bal[0]),
                                       f(bal[1]), f(bal[2]), f(bf[0]), f(bf[1]), f(bf[2]),
                                       f(ch[0]), f(ch[1]), f(ch[2]),
                                       f((double)agentP1 / games), String.format(Locale.ROOT, "%.1f", secs)));
    }

    /* The game compiled with the option settings of its ruleset NAME. */
    static Game load(String text, String name) {
        Game plain = compile(text, new ArrayList<>());
        for (Ruleset r : plain.description().rulesets())
            if (r.heading().equals(name))
                return compile(text, r.optionSettings());
        fail("no ruleset '" + name + "'");
        return null;
    }

    static Game compile(String text, List<String> options) {
        Object o = Compiler.compile(new Description(text), new UserSelections(options),
                                    new Report(), false);
        if (!(o instanceof Game))
            fail("the game did not compile");
        return (Game)o;
    }

    static String resource(String name) throws IOException {
        for (String dir : new String[] {"/lud/board/race/escape/", "/lud/"}) {
            try (InputStream in = LudiiRandom.class.getResourceAsStream(dir + name)) {
                if (in != null)
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        fail("no resource " + name);
        return null;
    }

    static String applyEdits(String text, List<String> lines, String file) {
        int i = 0, n = lines.size();
        while (i < n) {
            String l = lines.get(i);
            if (l.startsWith("#") || l.isBlank()) {
                i++;
                continue;
            }
            if (!l.startsWith("--- find"))
                fail(file + ":" + (i + 1) + ": expected '--- find'");
            String count = l.substring(8).trim();
            int want = count.isEmpty() ? 1 : Integer.parseInt(count), at = i + 1;
            StringBuilder find = new StringBuilder(), repl = new StringBuilder();
            for (i++; i < n && !lines.get(i).equals("--- replace"); i++)
                find.append(lines.get(i)).append('\n');
            for (i++; i < n && !lines.get(i).equals("--- end"); i++)
                repl.append(lines.get(i)).append('\n');
            if (i >= n)
                fail(file + ":" + at + ": unterminated edit");
            i++;
            StringBuilder re = new StringBuilder();
            for (String w : find.toString().trim().split("\\s+"))
                re.append(re.length() == 0 ? "" : "\\s+").append(Pattern.quote(w));
            Matcher m = Pattern.compile(re.toString()).matcher(text);
            int found = 0;
            while (m.find())
                found++;
            if (found != want)
                fail(file + ":" + at + ": the text occurs " + found + " times, not " + want);
            text = m.replaceAll(Matcher.quoteReplacement(repl.toString().trim()));
        }
        return text;
    }

    static long mix(long a, long b) { /* SplitMix64's finaliser over a and b */
        long z = a * 0x9e3779b97f4a7c15L + b + 0x632be59bd9b4e019L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static double[] wilson(long k, long n) {
        double z = 1.96, p = (double)k / n, z2 = z * z;
        double mid = (p + z2 / (2 * n)) / (1 + z2 / n);
        double half = z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
        return new double[] {p, Math.max(0, mid - half), Math.min(1, mid + half)};
    }

    /* 1 - |p1 - p2| with the interval of the difference of two shares of one
     * multinomial, as kemet computes it. */
    static double[] balance(long w1, long w2, long n) {
        double p1 = (double)w1 / n, p2 = (double)w2 / n, d = p1 - p2;
        double sd = Math.sqrt(((p1 + p2) - d * d) / n);
        double lo = d - 1.96 * sd, hi = d + 1.96 * sd;
        double far = Math.max(Math.abs(lo), Math.abs(hi));
        double near = lo <= 0 && hi >= 0 ? 0 : Math.min(Math.abs(lo), Math.abs(hi));
        return new double[] {1 - Math.abs(d), Math.max(0, 1 - far), 1 - near};
    }

    static double[] meanInterval(double[] x) {
        double[] v = Arrays.stream(x).filter(d -> !Double.isNaN(d)).toArray();
        int n = v.length;
        double m = Arrays.stream(v).sum() / n, ss = 0;
        for (double d : v)
            ss += (d - m) * (d - m);
        double half = 1.96 * Math.sqrt(ss / (n - 1) / n);
        return new double[] {m, m - half, m + half};
    }

    /* sum(a) / sum(b) with a ratio estimator's interval, as kemet's pooled
     * rates. */
    static double[] ratioInterval(double[] a, double[] b) {
        int n = a.length;
        double sa = Arrays.stream(a).sum(), sb = Arrays.stream(b).sum(), r = sa / sb, ss = 0;
        for (int i = 0; i < n; i++)
            ss += (a[i] - r * b[i]) * (a[i] - r * b[i]);
        double half = 1.96 * Math.sqrt(ss / ((double)n * (n - 1))) / (sb / n);
        return new double[] {r, r - half, r + half};
    }

    static double median(double[] x) {
        double[] v = x.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    static String f(double d) { return String.format(Locale.ROOT, "%.4f", d); }

    static String csv(String s) { return "\"" + s.replace("\"", "\"\"") + "\""; }

    static void fail(String why) {
        System.err.println("LudiiRandom: " + why);
        System.exit(2);
    }
}
