import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fidelity statistics for bench/fidelity.sh.
 *
 * Input (TSV, one program a line): name score bytecodes xint_ns jit_ns
 * [xint_spread jit_spread] (the run-to-run spread of the times over several
 * rounds, highest / lowest - 1; printed per program and summarised)
 * [jit_first_ns jit_first_spread] (with the JIT, the first call in a fresh
 * JVM: a program that runs once; when every line has it, every model line
 * gets a last column, rho against it). A single round's file (name score
 * bytecodes xint_ns jit_ns [jit_first_ns]) is read as well.
 * Usage: java FidelityStats DATA.tsv TSC_HZ OUT_PLOT.tsv [ROUND.tsv...]
 *
 * For the calibrated score, for plain bytecode counts, and for counts times
 * the one constant (ns per bytecode) that fits the corpus best (the one that
 * minimises the median relative error against -Xint time), prints the
 * Spearman rank correlation against -Xint and JIT time and the median and
 * worst relative error of the predicted time against -Xint time. Writes
 * name, predicted ms (calibrated), constant-model ms, -Xint ms, JIT ms
 * for the plot.
 *
 * With two or more ROUND.tsv files (name score bytecodes xint_ns jit_ns, one
 * timing round each; DATA.tsv then holds the minimum over these rounds),
 * also prints the noise ceiling: how well one measurement ranks another.
 * Spearman's rho between the times of every pair of rounds, of every round
 * against the minimum over all rounds and against the minimum over the other
 * rounds, and the median relative difference between rounds. A score is a
 * single fixed number per program, so it cannot rank the measured times
 * better than the measurements rank each other.
 *
 * The last line is one machine-readable summary of the corpus:
 * "summary n=.. rho_xint=.. rho_jit=.. rho_xint_jit=.. median_err=..
 * worst_err=.. noise_xint=.. noise_jit=.." (noise: the median rho between
 * two rounds' times, NaN with fewer than two rounds).
 */
public final class FidelityStats {
    private FidelityStats() { }

    static double[] ranks(double[] v) {
        Integer[] idx = new Integer[v.length];
        for (int i = 0; i < v.length; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> Double.compare(v[a], v[b]));
        double[] r = new double[v.length];
        for (int i = 0; i < v.length;) {
            int j = i;
            while (j + 1 < v.length && v[idx[j + 1]] == v[idx[i]]) j++;
            double avg = (i + j) / 2.0 + 1;          /* ties share the mean rank */
            for (int k = i; k <= j; k++) r[idx[k]] = avg;
            i = j + 1;
        }
        return r;
    }

    /** Spearman's rho: Pearson correlation of the ranks. */
    /* The issue's rank targets against -Xint and JIT time. */
    static final double TARGET_XINT = 0.98, TARGET_JIT = 0.90;

    /*
     * Whether any score at all can meet both rank targets on this corpus.
     * Spearman's rho is Pearson's r over (mid-)ranks, so the rhos of three
     * rank vectors (score, -Xint, JIT) form a positive semi-definite
     * correlation matrix: rho(X,J) >= a b - sqrt((1 - a^2)(1 - b^2)) with
     * a = rho(S,X), b = rho(S,J). With a = 0.98 and b = 0.90 that asks
     * rho(X,J) >= 0.795; and a score that ranks -Xint times at 0.98 ranks
     * JIT times at most at a c + sqrt((1 - a^2)(1 - c^2)), c = rho(X,J).
     */
    static void jointTargets(double rhoXJ) {
        double a = TARGET_XINT, b = TARGET_JIT;
        double need = a * b - Math.sqrt((1 - a * a) * (1 - b * b));
        double best = a * rhoXJ + Math.sqrt((1 - a * a) * (1 - rhoXJ * rhoXJ));
        System.out.printf(Locale.ROOT, "both rank targets (%.2f -Xint, %.2f JIT) need -Xint and JIT times to rank each other"
                          + " at >= %.3f, for any score; here %.3f: %s%n", a, b, need, rhoXJ,
                          rhoXJ >= need ? "possible" : "no score can meet both");
        System.out.printf(Locale.ROOT, "a score ranking -Xint times at %.2f ranks JIT times at most at %.3f here%n",
                          a, Math.min(1.0, best));
    }

    static double spearman(double[] x, double[] y) {
        double[] a = ranks(x), b = ranks(y);
        double ma = 0, mb = 0;
        for (int i = 0; i < a.length; i++) { ma += a[i]; mb += b[i]; }
        ma /= a.length;
        mb /= b.length;
        double sab = 0, saa = 0, sbb = 0;
        for (int i = 0; i < a.length; i++) {
            sab += (a[i] - ma) * (b[i] - mb);
            saa += (a[i] - ma) * (a[i] - ma);
            sbb += (b[i] - mb) * (b[i] - mb);
        }
        return sab / Math.sqrt(saa * sbb);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    static double[] relErr(double[] pred, double[] t) {
        double[] e = new double[t.length];
        for (int i = 0; i < t.length; i++) e[i] = Math.abs(pred[i] - t[i]) / t[i];
        return e;
    }

    static double max(double[] v) {
        double m = 0;
        for (double x : v) m = Math.max(m, x);
        return m;
    }

    public static void main(String[] args) throws Exception {
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]))) {
            for (String line; (line = in.readLine()) != null;)
                if (!line.isBlank() && !line.startsWith("#")) rows.add(line.trim().split("\\s+"));
        }
        double tscHz = Double.parseDouble(args[1]);
        int n = rows.size();
        String[] name = new String[n];
        double[] score = new double[n], bc = new double[n], xint = new double[n], jit = new double[n];
        double[] xSpread = new double[n], jSpread = new double[n];
        double[] first = new double[n], fSpread = new double[n];
        boolean spreads = n > 0, firsts = n > 0;
        for (int i = 0; i < n; i++) {
            String[] r = rows.get(i);
            name[i] = r[0];
            score[i] = Double.parseDouble(r[1]);
            bc[i] = Double.parseDouble(r[2]);
            xint[i] = Double.parseDouble(r[3]);
            jit[i] = Double.parseDouble(r[4]);
            if (r.length >= 7) {
                xSpread[i] = Double.parseDouble(r[5]);
                jSpread[i] = Double.parseDouble(r[6]);
            } else {
                spreads = false;
            }
            if (r.length >= 9) {
                first[i] = Double.parseDouble(r[7]);
                fSpread[i] = Double.parseDouble(r[8]);
            } else if (r.length == 6) { /* one round: name score bytecodes xint jit jit_first */
                first[i] = Double.parseDouble(r[5]);
            } else {
                firsts = false;
            }
        }
        double[] predCal = new double[n];
        for (int i = 0; i < n; i++) predCal[i] = score[i] / tscHz * 1e9;

        /* The best single constant: the median relative error is piecewise
         * linear in c, so its minimum lies at some t_i / b_i; try them all. */
        double bestC = 0, bestMed = Double.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            double c = xint[k] / bc[k];
            double[] p = new double[n];
            for (int i = 0; i < n; i++) p[i] = bc[i] * c;
            double m = median(relErr(p, xint));
            if (m < bestMed) { bestMed = m; bestC = c; }
        }
        double[] predConst = new double[n];
        for (int i = 0; i < n; i++) predConst[i] = bc[i] * bestC;

        System.out.printf(Locale.ROOT, "%-18s %12s %14s %10s %10s %10s %8s %8s %7s%s%s%n", "program", "bytecodes",
                          "score", "pred ms", "-Xint ms", "JIT ms", "err", "err c", "ns/bc",
                          spreads ? "  sprd Xint  sprd JIT" : "", firsts ? (spreads ? "  JIT 1st ms  sprd 1st" : "  JIT 1st ms") : "");
        for (int i = 0; i < n; i++)
            System.out.printf(Locale.ROOT, "%-18s %12.0f %14.0f %10.2f %10.2f %10.3f %+7.1f%% %+7.1f%% %7.2f%s%s%n", name[i], bc[i],
                              score[i], predCal[i] / 1e6, xint[i] / 1e6, jit[i] / 1e6,
                              100 * (predCal[i] - xint[i]) / xint[i], 100 * (predConst[i] - xint[i]) / xint[i],
                              xint[i] / bc[i], spreads ? String.format(Locale.ROOT, "  %8.1f%% %8.1f%%",
                                                                        100 * xSpread[i], 100 * jSpread[i]) : "",
                              !firsts ? "" : spreads ? String.format(Locale.ROOT, "  %10.3f  %7.1f%%", first[i] / 1e6, 100 * fSpread[i])
                              : String.format(Locale.ROOT, "  %10.3f", first[i] / 1e6));
        double[] eCal = relErr(predCal, xint), eConst = relErr(predConst, xint);
        System.out.println();
        System.out.printf(Locale.ROOT, "%d programs; -Xint cost per bytecode from %.2f to %.2f ns%n", n,
                          minRatio(xint, bc), maxRatio(xint, bc));
        if (spreads)
            System.out.printf(Locale.ROOT, "run-to-run spread (highest / lowest - 1): -Xint median %.1f%%, worst %.1f%%;"
                              + " JIT median %.1f%%, worst %.1f%%%n", 100 * median(xSpread), 100 * max(xSpread),
                              100 * median(jSpread), 100 * max(jSpread));
        if (firsts && spreads)
            System.out.printf(Locale.ROOT, "run-to-run spread of the JIT's first call: median %.1f%%, worst %.1f%%%n",
                              100 * median(fSpread), 100 * max(fSpread));
        /* rho JIT: the steady state; rho JIT 1st: the first call in a fresh JVM */
        System.out.printf(Locale.ROOT, "%-34s %12s %12s %14s %14s%s%n", "model", "rho -Xint", "rho JIT", "median err",
                          "worst err", firsts ? String.format(Locale.ROOT, " %12s", "rho JIT 1st") : "");
        System.out.printf(Locale.ROOT, "%-34s %12.4f %12.4f %13.1f%% %13.1f%%%s%n", "calibrated score / tsc_hz",
                          spearman(score, xint), spearman(score, jit), 100 * median(eCal), 100 * max(eCal),
                          firstRho(firsts, score, first));
        System.out.printf(Locale.ROOT, "%-34s %12.4f %12.4f %14s %14s%s%n", "plain bytecode count",
                          spearman(bc, xint), spearman(bc, jit), "-", "-", firstRho(firsts, bc, first));
        System.out.printf(Locale.ROOT, "%-34s %12.4f %12.4f %13.1f%% %13.1f%%%s%n",
                          String.format(Locale.ROOT, "count x %.2f ns (best constant)", bestC),
                          spearman(bc, xint), spearman(bc, jit), 100 * median(eConst), 100 * max(eConst),
                          firstRho(firsts, bc, first));
        /* The ceiling for any -Xint model against the JIT: -Xint time itself. */
        System.out.printf(Locale.ROOT, "%-34s %12.4f %12.4f %14s %14s%s%n", "measured -Xint time (perfect model)",
                          1.0, spearman(xint, jit), "0.0%", "0.0%", firstRho(firsts, xint, first));
        System.out.printf(Locale.ROOT, "JIT speed-up (-Xint / JIT time) from %.1f to %.0f times%n",
                          minRatio(xint, jit), maxRatio(xint, jit));
        jointTargets(spearman(xint, jit));
        double[] noise = {Double.NaN, Double.NaN};
        if (args.length >= 5)
            noise = noiseCeiling(name, Arrays.copyOfRange(args, 3, args.length));
        try (PrintWriter out = new PrintWriter(args[2])) {
            out.println("# program predicted_ms const_ms xint_ms jit_ms");
            for (int i = 0; i < n; i++)
                out.printf(Locale.ROOT, "%s %.4f %.4f %.4f %.4f%n", name[i], predCal[i] / 1e6, predConst[i] / 1e6,
                           xint[i] / 1e6, jit[i] / 1e6);
        }
        System.out.printf(Locale.ROOT, "summary n=%d rho_xint=%.4f rho_jit=%.4f rho_xint_jit=%.4f median_err=%.4f"
                          + " worst_err=%.4f noise_xint=%.4f noise_jit=%.4f%n", n, spearman(score, xint),
                          spearman(score, jit), spearman(xint, jit), median(eCal), max(eCal), noise[0], noise[1]);
    }

    static String firstRho(boolean firsts, double[] x, double[] first) {
        return firsts ? String.format(Locale.ROOT, " %12.4f", spearman(x, first)) : "";
    }

    /**
     * The noise ceiling from the single rounds' times: rho between rounds
     * (every pair), rho of each round against the minimum over all rounds
     * (what DATA.tsv holds; flattered, as that minimum contains the round
     * itself) and against the minimum over the other rounds (no shared
     * measurement), and the median of |t_r / t_s - 1| over programs and
     * ordered pairs of rounds r != s.
     */
    /** Returns the median rho between two rounds' times: {-Xint, JIT}. */
    static double[] noiseCeiling(String[] name, String[] roundFiles) throws Exception {
        int n = name.length, rounds = roundFiles.length;
        double[][] x = new double[rounds][n], j = new double[rounds][n], f = new double[rounds][n];
        boolean firsts = true;
        for (int r = 0; r < rounds; r++) {
            Map<String, double[]> times = new HashMap<>();
            try (BufferedReader in = new BufferedReader(new FileReader(roundFiles[r]))) {
                for (String line; (line = in.readLine()) != null;) {
                    if (line.isBlank() || line.startsWith("#")) continue;
                    String[] c = line.trim().split("\\s+");
                    times.put(c[0], new double[] {Double.parseDouble(c[3]), Double.parseDouble(c[4]),
                                                  c.length >= 6 ? Double.parseDouble(c[5]) : -1});
                }
            }
            for (int i = 0; i < n; i++) {
                double[] t = times.get(name[i]);
                if (t == null) throw new IllegalArgumentException(roundFiles[r] + " has no time for " + name[i]);
                x[r][i] = t[0];
                j[r][i] = t[1];
                f[r][i] = t[2];
                firsts &= t[2] >= 0;
            }
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "noise ceiling, %d rounds: how well one measurement ranks another:"
                          + " the ceiling any score can reach here%n", rounds);
        System.out.printf(Locale.ROOT, "  %-46s %-28s %s%n", "Spearman rho between measured times",
                          "-Xint (min / median / max)", "JIT (min / median / max)");
        System.out.printf(Locale.ROOT, "  %-46s %-28s %s%n",
                          String.format(Locale.ROOT, "one round against another (%d pairs)", rounds * (rounds - 1) / 2),
                          summary(pairRhos(x)), summary(pairRhos(j)));
        double[] xAll = minOver(x, -1), jAll = minOver(j, -1);
        double[] rxAll = new double[rounds], rjAll = new double[rounds];
        double[] rxOther = new double[rounds], rjOther = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            rxAll[r] = spearman(x[r], xAll);
            rjAll[r] = spearman(j[r], jAll);
            rxOther[r] = spearman(x[r], minOver(x, r));
            rjOther[r] = spearman(j[r], minOver(j, r));
        }
        System.out.printf(Locale.ROOT, "  %-46s %-28s %s%n", "one round against the minimum of all rounds",
                          summary(rxAll), summary(rjAll));
        if (rounds >= 3)
            System.out.printf(Locale.ROOT, "  %-46s %-28s %s%n", "one round against the minimum of the others",
                              summary(rxOther), summary(rjOther));
        System.out.printf(Locale.ROOT, "  each round against the minimum of all, -Xint:%s; JIT:%s%n", list(rxAll), list(rjAll));
        if (firsts)
            System.out.printf(Locale.ROOT, "  JIT, first call: one round against another %s, against the minimum of all %s;"
                              + " median relative difference between rounds %.1f%%%n", summary(pairRhos(f)),
                              summary(rhoAgainstMin(f)), 100 * pairDiff(f));
        System.out.printf(Locale.ROOT, "  median relative difference between rounds |t_r / t_s - 1| (programs x ordered pairs):"
                          + " -Xint %.1f%%, JIT %.1f%%%n", 100 * pairDiff(x), 100 * pairDiff(j));
        System.out.printf(Locale.ROOT, "  median relative difference of one round from the minimum |t_r / t_min - 1|:"
                          + " -Xint %.1f%%, JIT %.1f%%%n", 100 * minDiff(x, xAll), 100 * minDiff(j, jAll));
        return new double[] {median(pairRhos(x)), median(pairRhos(j))};
    }

    static double[] rhoAgainstMin(double[][] t) {
        double[] all = minOver(t, -1), rho = new double[t.length];
        for (int r = 0; r < t.length; r++) rho[r] = spearman(t[r], all);
        return rho;
    }

    static double[] pairRhos(double[][] t) {
        int rounds = t.length, k = 0;
        double[] rho = new double[rounds * (rounds - 1) / 2];
        for (int r = 0; r < rounds; r++)
            for (int s = r + 1; s < rounds; s++) rho[k++] = spearman(t[r], t[s]);
        return rho;
    }

    /** Per program, the minimum over the rounds except round skip (-1: none). */
    static double[] minOver(double[][] t, int skip) {
        double[] m = new double[t[0].length];
        Arrays.fill(m, Double.MAX_VALUE);
        for (int r = 0; r < t.length; r++)
            if (r != skip)
                for (int i = 0; i < m.length; i++) m[i] = Math.min(m[i], t[r][i]);
        return m;
    }

    static double pairDiff(double[][] t) {
        int rounds = t.length, n = t[0].length, k = 0;
        double[] d = new double[rounds * (rounds - 1) * n];
        for (int r = 0; r < rounds; r++)
            for (int s = 0; s < rounds; s++)
                if (r != s)
                    for (int i = 0; i < n; i++) d[k++] = Math.abs(t[r][i] / t[s][i] - 1);
        return median(d);
    }

    static double minDiff(double[][] t, double[] min) {
        int n = min.length, k = 0;
        double[] d = new double[t.length * n];
        for (double[] round : t)
            for (int i = 0; i < n; i++) d[k++] = round[i] / min[i] - 1;
        return median(d);
    }

    static String summary(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format(Locale.ROOT, "%.4f / %.4f / %.4f", s[0], median(s), s[s.length - 1]);
    }

    static String list(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (double x : v) sb.append(String.format(Locale.ROOT, " %.4f", x));
        return sb.toString();
    }

    static double minRatio(double[] t, double[] b) {
        double m = Double.MAX_VALUE;
        for (int i = 0; i < t.length; i++) m = Math.min(m, t[i] / b[i]);
        return m;
    }

    static double maxRatio(double[] t, double[] b) {
        double m = 0;
        for (int i = 0; i < t.length; i++) m = Math.max(m, t[i] / b[i]);
        return m;
    }
}
