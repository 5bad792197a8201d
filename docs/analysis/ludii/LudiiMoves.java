/* LudiiMoves.java - the positions of Ludii's random games of a Senet
 * ruleset, each with its throw and Ludii's legal moves, for
 * compare_moves.py to set beside `kemet moves`.
 *
 * Built and run beside LudiiRandom (README.md here):
 *   java -cp CLASSES:. LudiiMoves --ruleset NAME [--edits FILE]
 *        [--games N] [--seed S] [--plies P]
 * Prints a line a state of the playing phase (the opening left out):
 *   mover|p1 squares|p2 squares|score 1|score 2|value 1|value 2|pips|moves
 * squares 1-30 along the boustrophedon track (K1); the players' scores
 * and values as Ludii keeps them (Bell's pieces borne off; the first 1 of
 * Kendall's start=1); pips, the dice's sum for the move played; moves,
 * the legal moves as FROM-TO (FROM-off, pass), sorted.
 */
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.apache.commons.rng.core.source64.SplitMix64;

import game.Game;
import other.context.Context;
import other.move.Move;
import other.trial.Trial;

public final class LudiiMoves {
    public static void main(String[] args) throws Exception {
        String ruleset = null, edits = null;
        long games = 10, seed = 1;
        int plies = 3000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
            case "--ruleset": ruleset = args[i + 1]; break;
            case "--edits": edits = args[i + 1]; break;
            case "--games": games = Long.parseLong(args[i + 1]); break;
            case "--seed": seed = Long.parseLong(args[i + 1]); break;
            case "--plies": plies = Integer.parseInt(args[i + 1]); break;
            default: LudiiRandom.fail("unknown option " + args[i]);
            }
        }
        if (ruleset == null)
            LudiiRandom.fail("usage: --ruleset NAME [--edits FILE] [--games N]");
        String text = LudiiRandom.resource("Senet.lud");
        if (edits != null)
            text = LudiiRandom.applyEdits(text, Files.readAllLines(Paths.get(edits)), edits);
        Game game = LudiiRandom.load(text, ruleset);

        /* Ludii's sites of the 3x10 board: 0-9 the bottom row (squares
         * 21-30), 10-19 the middle row (20-11), 20-29 the top row (1-10) */
        int[] square = new int[30];
        for (int s = 0; s < 10; s++) {
            square[20 + s] = 1 + s;
            square[19 - s] = 11 + s;
            square[s] = 21 + s;
        }
        for (long g = 0; g < games; g++) {
            long s = LudiiRandom.mix(seed, g);
            Context ctx = new Context(game, new Trial(game));
            ctx.rng().restoreState(new SplitMix64(s).saveState());
            game.start(ctx);
            SplittableRandom pick = new SplittableRandom(s);
            for (int i = 0; i < plies && !ctx.trial().over(); i++) {
                int mover = ctx.state().mover();
                String phase = game.rules().phases()[ctx.state().currentPhase(mover)].name();
                List<Move> legal = new ArrayList<>();
                for (Move m : game.moves(ctx).moves())
                    legal.add(m);
                StringBuilder line = new StringBuilder().append(mover);
                for (int p = 1; p <= 2; p++) {
                    TreeSet<Integer> at = new TreeSet<>();
                    for (int site = 0; site < 30; site++)
                        if (ctx.containerState(0).who(site, game.board().defaultSite()) == p)
                            at.add(square[site]);
                    line.append('|').append(at.isEmpty() ? "-" : join(at));
                }
                boolean scored = game.requiresScore();
                line.append('|').append(scored ? ctx.score(1) : 0);
                line.append('|').append(scored ? ctx.score(2) : 0);
                line.append('|').append(ctx.state().getValue(1));
                line.append('|').append(ctx.state().getValue(2));
                TreeSet<String> moves = new TreeSet<>();
                for (Move m : legal)
                    moves.add(describe(m, square));
                game.apply(ctx, legal.get(pick.nextInt(legal.size())));
                int pips = 0;
                for (int d : ctx.state().currentDice()[0])
                    pips += d;
                if (!phase.equals("Opening"))
                    System.out.println(line + "|" + pips + "|" + String.join(" ", moves));
            }
        }
    }

    static String join(TreeSet<Integer> at) {
        StringBuilder b = new StringBuilder();
        for (int x : at)
            b.append(b.length() > 0 ? "," : "").append(x);
        return b.toString();
    }

    /* A move as kemet writes it: FROM-TO, FROM-off, or pass. */
    static String describe(Move m, int[] square) {
        String kind = m.actions().isEmpty() ? "" : m.actions().get(0).getClass().getSimpleName();
        for (var a : m.actions()) {
            String k = a.getClass().getSimpleName();
            if (k.contains("Pass"))
                return "pass";
            if (k.contains("Remove"))
                kind = "Remove";
        }
        int f = m.fromNonDecision(), t = m.toNonDecision();
        String from = f >= 0 && f < 30 ? "" + square[f] : "?";
        if (kind.equals("Remove"))
            return from + "-off";
        return from + "-" + (t >= 0 && t < 30 ? "" + square[t] : "?");
    }
}
