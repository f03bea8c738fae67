/*
 * report.c - the human-readable calibration report written beside the table
 * (config/costs-report.txt for config/costs.xml).
 */
#include "calibrate.h"

#include <math.h>
#include <string.h>

#include "calls.h"

static void rule(FILE *f)
{
    fputs("------------------------------------------------------------------------------\n", f);
}

/* One line per feature of the kinds a to b (one price each, no per-element part). */
static void single_prices(FILE *f, const model *m, const fit_result *fr, feat_kind a, feat_kind b)
{
    for (size_t j = 0; j < m->nf; j++)
        if (m->f[j].kind >= a && m->f[j].kind <= b)
            fprintf(f, "  %-16s %9.3f%s\n", m->f[j].name, fr->cost[j],
                    fr->seen[j] ? "" : "   [not exercised: not in the table]");
}

/* The mark of an entry model_price_work left out of the table, or "". */
static const char *unpriced_note(unsigned char why)
{
    return why == UNPRICED_CALL   ? "   [left out of the table: no cycles for its calls beyond the rest of its kernels]"
           : why == UNPRICED_ELEM ? "   [left out of the table: its kernels' time does not grow with its elements]"
                                  : "";
}

static void kernel_rows(FILE *f, const calib_run *r, int holdout)
{
    fprintf(f, "  %-28s %9s %9s %10s %10s %8s %6s %7s\n", "kernel", "n1", "n2", "measured", "predicted",
            "error", "bc/it", "spread");
    for (size_t k = 0; k < r->ks.n; k++) {
        const kresult *kr = &r->res[k];
        if (!!(r->ks.v[k].flags & KF_HOLDOUT) != holdout)
            continue;
        if (!kr->x) {
            fprintf(f, "  %-28s (not measured)\n", r->ks.v[k].name);
            continue;
        }
        fprintf(f, "  %-28s %9ld %9ld %10.1f %10.1f %+7.1f%% %6.1f", r->ks.v[k].name, kr->n1, kr->n2,
                kr->cycles, kr->predicted, 100 * (kr->predicted - kr->cycles) / kr->cycles, kr->bytecodes);
        if (kr->passes > 1)
            fprintf(f, " %6.1f%%\n", 100 * (kr->pass_hi / kr->pass_lo - 1));
        else
            fprintf(f, " %7s\n", "-");
    }
}

void report_write(FILE *f, const calib_run *r)
{
    const model *m = &r->m;
    const fit_result *fr = &r->fit;
    double tsc_ghz = (double)r->tsc_hz / 1e9;
    int empty = -1;

    fprintf(f, "PSF calibration report\n");
    rule(f);
    fprintf(f, "table          %s\n", r->opt->out);
    fprintf(f, "date           %s\n", r->date);
    fprintf(f, "cpu            %s (vendor %s, family %ld, model %ld, stepping %ld)\n",
            r->cpu.model_name[0] ? r->cpu.model_name : "unknown", r->cpu.vendor[0] ? r->cpu.vendor : "unknown",
            r->cpu.family, r->cpu.model, r->cpu.stepping);
    fprintf(f, "tsc            %llu Hz (TSC ticks against CLOCK_MONOTONIC_RAW, median of %d intervals, spread %.2g)%s\n",
            (unsigned long long)r->tsc_hz, r->opt->quick ? 3 : 7, r->tsc_spread,
            r->tsc_flags_ok ? "; constant_tsc nonstop_tsc" : "; WARNING: no constant_tsc/nonstop_tsc");
    fprintf(f, "jdk            %s\n", r->jdk);
    fprintf(f, "jvm flags      %s\n", r->jvm_flags);
    fprintf(f, "isolation      %s\n", r->isolation_note);
    fprintf(f, "mode           %s, %zu kernels (%zu fitted, %zu held out), %.0f s\n",
            r->opt->kernels ? "--kernels" : r->opt->quick ? "--quick" : "full", r->ks.n, r->n_train, r->n_holdout, r->seconds);
    fprintf(f, "fit            R^2 %.5f; fitted kernels: median relative error %.1f%%, worst %.1f%%\n",
            fr->r2, 100 * r->train_median, 100 * r->train_worst);
    fprintf(f, "hold-out       median relative error %.1f%%, worst %.1f%% (%s)\n",
            100 * r->holdout_median, 100 * r->holdout_worst, r->holdout_worst_name);
    fprintf(f, "timing passes  %d", r->passes);
    if (r->passes_added > 0)
        fprintf(f, " (%d added: the fit of the first %d priced some work at 0)", r->passes_added,
                r->passes - r->passes_added);
    fputc('\n', f);
    {
        size_t left = 0;
        for (size_t j = 0; j < m->nf; j++)
            left += model_left_out(m, fr, j) != 0;
        if (left > 0)
            fprintf(f, "left out       %zu entr%s without a price after the added passes (marked below): priced "
                       "as keys the table lacks\n", left, left == 1 ? "y" : "ies");
    }
    if (r->spread_median > 0 || r->spread_worst > 0)
        fprintf(f, "timing spread  per kernel, highest / lowest of %d passes - 1: median %.1f%%, worst %.1f%% (%s)\n",
                r->passes, 100 * r->spread_median, 100 * r->spread_worst, r->spread_worst_name);
    else
        fprintf(f, "timing spread  not measured (one pass)\n");
    fprintf(f, "timer          back-to-back serialized TSC reads: %llu ticks (cancelled by differencing)\n",
            (unsigned long long)r->timer_ticks);
    for (size_t k = 0; k < r->ks.n; k++)
        if (strcmp(r->ks.v[k].name, "empty") == 0)
            empty = (int)k;
    if (empty >= 0 && r->res[empty].x)
        fprintf(f, "empty loop     %.2f cycles per iteration (%.0f bytecodes: the loop's own iload/if/iinc/goto)\n",
                r->res[empty].cycles, r->res[empty].bytecodes);

    fprintf(f, "\nMethod\n");
    rule(f);
    fputs("Each kernel is a static method looping n times over a fixed body. Counting:\n"
          "the agent counts the kernel at n = 64 and n = 128 in separate JVMs; the\n"
          "difference / 64 is the exact histogram of one iteration (setup, call and\n"
          "class loading cancel). Timing: a JVM without the agent, in -Xint with the\n"
          "flags above, reads the TSC (serialized, calibrate/tsc.h, JNI) around calls with n1 and n2\n"
          "iterations, alternately, keeping each minimum until neither improved by\n"
          "more than 0.2% for several rounds; (min(n2) - min(n1)) / (n2 - n1) is one\n"
          "iteration in cycles. The difference cancels the timer reads, the JNI and\n"
          "kernel calls and the setup; the empty loop's bytecodes are counted like any\n"
          "others and priced by the fit (the `empty` kernel pins them). Timing passes\n"
          "run one after another (never in parallel); each kernel keeps its lowest\n"
          "figure. The fit is non-negative least squares (Lawson-Hanson) on relative\n"
          "error (rows weighted by 1/measured), with a ridge of 1e-4 x each column's\n"
          "norm so that features that always occur together (an invoke and the\n"
          "callee's return) share their cost instead of one taking all of it.\n"
          "Opcodes are priced in groups the template interpreter executes alike; every\n"
          "member gets its group's price. Held-out kernels (h_*) are realistic mixes\n"
          "that are not fitted: their errors say how well the table predicts new code.\n", f);

    fprintf(f, "\nHeld-out kernels (cycles per iteration)\n");
    rule(f);
    kernel_rows(f, r, 1);
    fprintf(f, "\nFitted kernels (cycles per iteration)\n");
    rule(f);
    kernel_rows(f, r, 0);

    fprintf(f, "\nOpcode groups (cycles per execution; ns at %.3f GHz)\n", tsc_ghz);
    rule(f);
    for (size_t j = 0; j < m->nf; j++) {
        if (m->f[j].kind != FK_OPGROUP)
            continue;
        fprintf(f, "  %-16s %9.3f %7.2f ns  %s%s\n", m->f[j].name,
                fr->seen[j] ? fr->cost[j] : r->unseen_group_cost,
                (fr->seen[j] ? fr->cost[j] : r->unseen_group_cost) / tsc_ghz,
                fr->seen[j] ? "" : "[NOT EXERCISED: median group price] ", m->f[j].members);
    }
    fprintf(f, "  Every price includes %.3f cycles that all bytecodes share (the interpreter's\n"
            "  dispatch); the fit pulls each group toward it and moves a group away only as\n"
            "  far as the kernels clearly say (ridge 3 on the groups, docs/calibration.md).\n", fr->base);
    fputs("  Members never executed by any kernel (javac does not emit them): nop, swap,\n"
          "  jsr, ret, jsr_w. They carry their group's price; costs.xsd has no way to\n"
          "  mark a single entry as not measured, so this report is where that is said.\n"
          "  goto_w and the wide forms are executed (kernels goto_w and wide) but too\n"
          "  rarely per iteration to get a price of their own: goto_w is priced with\n"
          "  goto; `wide` is its own group (the agent counts a wide instruction once,\n"
          "  as `wide`).\n", f);

    fprintf(f, "\nConditional branches (cycles, on top of the if* opcode's price)\n");
    rule(f);
    single_prices(f, m, fr, FK_BRANCH_TAKEN, FK_BRANCH_MISS);
    fputs("  mispredicted: the agent's simulated predictor (a gshare of 2^14 two-bit\n"
          "  counters and 12 outcomes of history per thread) predicted the other way.\n", f);

    fprintf(f, "\nMethod entries (cycles per bytecode of closeness, on top of invoke and return)\n");
    rule(f);
    single_prices(f, m, fr, FK_CALL_CLOSE, FK_FENCE_ALLOC);
    fprintf(f, "  close: %d minus the bytecodes since the previous method entry on the\n"
            "  thread, summed over entries closer than that (common/calls.h): the\n"
            "  interpreter's stack banging at each entry, which later bytecodes hide.\n"
            "  fence_native, fence_alloc: the same closeness to the last entry, of calls\n"
            "  that ran no bytecode and of allocations, which wait for those stores.\n", CALL_CLOSE_WINDOW);

    fprintf(f, "\nClass constants (cycles per ldc or ldc_w of a class, on top of the opcode)\n");
    rule(f);
    single_prices(f, m, fr, FK_LDC_CLASS, FK_LDC_CLASS);
    fputs("  HotSpot's interpreter loads a class constant through a call into the VM\n"
          "  every time; numbers and strings load inline and cost the ldc opcode alone.\n", f);

    fprintf(f, "\nArrays (cycles per allocation + per element)\n");
    rule(f);
    for (size_t j = 0; j < m->nf; j++)
        if (m->f[j].kind == FK_ARRAY_ALLOC)
            fprintf(f, "  %-16s %9.3f + %7.3f per element%s%s\n", m->f[j].name, fr->cost[j], fr->cost[j + 1],
                    !fr->seen[j] ? "   [not exercised: not in the table]" : unpriced_note(fr->unpriced[j]),
                    fr->repriced[j] || fr->repriced[j + 1] ? "   [from its own kernels]" : "");

    fprintf(f, "\nMethods priced per call (cycles, on top of the invoke)\n");
    rule(f);
    for (size_t j = 0; j < m->nf; j++)
        if (m->f[j].kind == FK_INVOKE) {
            fprintf(f, "  %10.3f  %s%s%s\n", fr->cost[j], m->f[j].name,
                    !fr->seen[j] ? "   [not exercised: not in the table]" : unpriced_note(fr->unpriced[j]),
                    fr->repriced[j] == 2 ? "   [not separable from the natives beside it: an unlisted native's price]"
                    : fr->repriced[j] ? "   [from its own kernels]" : "");
            if (fr->seen[j + 1])
                fprintf(f, "  %10.3f  ... per element (copied, or allocated by the call)%s\n", fr->cost[j + 1],
                        fr->repriced[j + 1] ? "   [from its own kernels]" : "");
        }
    for (size_t j = 0; j < m->nf; j++)
        if (m->f[j].kind == FK_OTHER_NATIVE)
            fprintf(f, "  %10.3f  (other native methods%s)\n", fr->cost[j],
                    fr->seen[j] ? ": fitted, written as <default>" : ": not exercised");
    fprintf(f, "  default = %.3f cycles: what the scorer charges for a key the table lacks\n", r->default_cost);
    fputs("  No work is priced at 0: a price the fit set to 0 is fitted again from the\n"
          "  kernels that exercise it alone, marked [from its own kernels]. A native\n"
          "  or an array type still at 0 after the added timing passes is left out of\n"
          "  the table, marked [left out ...]. A score that calls such a native or\n"
          "  allocates such a primitive array is approximate (~) and names its key\n"
          "  missing; an array of references left out is priced as array:reference\n"
          "  (unless reference itself is left out).\n", f);
    fputs("  System.arraycopy has a per-element price (the agent reports the elements\n"
          "  copied), and so have an array's clone and Array.newArray (the elements\n"
          "  they allocate; kernels at 8 or 16 and at 256 elements).\n", f);
    if (r->skipped_keys[0])
        fprintf(f, "\n--keys entries not calibrated:\n%s", r->skipped_keys);
    if (fr->status != 0)
        fprintf(f, "\nWARNING: the NNLS solver ended with status %d (iteration bound)\n", fr->status);
}
