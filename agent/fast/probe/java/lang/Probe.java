package java.lang;

/*
 * The fast counting engine's probe (agent/fast/fast.c, docs/fast-engine.md).
 * The agent defines this class in the boot loader at VMInit, under a name
 * drawn for the run (below), and rewrites every other class so that each
 * basic block starts with `invokestatic java/lang/ProbeXXX.Code(II)V` (XXX
 * the run's 20 characters), the block's id and its lengths (and each
 * conditional branch and each array instruction gets a probe of its own,
 * below). The JIT inlines them into compiled code like any small method,
 * and the constants the rewriter passes
 * (agent/classfile/instrument.h, "options.consts") fold into it: what a block adds
 * is no table lookup.
 *
 * The probes most classes call have two names, one method for each
 * descriptor:
 *
 *   Code(II)V         the block probe, the entry-block probe, the
 *                     root entry and exit probes and the call, return
 *                     and new probes
 *   Code(III)V        the if<cond> branch probe (if_icmp<cond>'s too, on
 *                     the sign of the difference of its operands, and in
 *                     the boot loader's classes ifnull's and ifnonnull's,
 *                     on instanceof Object) and the folded branch
 *   Code(Object;II)V  ifnull, ifnonnull in the other classes
 *   Code(Object;Object;II)V  if_acmp<cond>
 *   SourceFile(I)V    the other entry probe (a method entered where a
 *                     jump lands on its first instruction)
 *   SourceFile(Object;II)V  the array probe
 *
 * told apart, where they share one, by a constant the rewriter passes
 * (negative for the second of each pair, ~ROOT for the root probes,
 * whose exit passes ~id; the call, return and new probes pass ~site and
 * 1 for the call), which the JIT folds like the rest. The names are
 * those of two class-file attributes, whose Utf8 entries the constant
 * pool of nearly every class holds already. A class's rewritten constant
 * pool then holds one Methodref per probe method it calls and, but for
 * the rarer probes (copy, made), no new name: HotSpot merges the pools of
 * the classes the agent retransforms at VMInit with a linear search per
 * entry added, and those entries are a large part of the engine's start.
 *
 * A probe counts only on a thread the agent has switched on (where the step
 * engine would enable single-stepping): `counting` holds those threads'
 * counters, and an empty array makes every probe return at once. It touches
 * nothing but this class, arrays and Thread.currentThread() (a native
 * intrinsic without bytecode), so it never runs instrumented code, which
 * would count the probe and call it again. Instances are made by the agent
 * (JNI AllocObject: no constructor runs), one per counted thread, and only
 * that thread writes their counters. This class itself is never rewritten.
 *
 * What the JIT inlines at every probe site is its fast path only: the rare
 * paths (arrays to grow, a bystander's block, another bucket than work, a
 * native call, the limit) are @DontInline. C1 inlines by size, so without
 * that it copied them into every site, which made compiled methods several
 * times larger, slower to compile and slower to run (bench/fast_scoring.sh:
 * about 30 ms less of 400 on the merge sort). The annotation is the JDK's
 * own, honoured for classes of the boot loader, where the agent defines this
 * one (the build compiles it as part of java.base: --patch-module).
 *
 * Out of the program's reach (docs/trust-model.md): the class lives in
 * java.lang, a package java.base exports but does not open, so its
 * public probes link from every module while nothing outside java.base
 * can make its other members accessible (setAccessible,
 * privateLookupIn and VarHandles are refused). It is compiled as
 * java.lang.Probe, a name it never runs under: the agent renames it
 * (agent/classfile/probename.c) to java.lang.Probe followed by 20 characters drawn
 * for the run, whose String.hashCode is always the same, so no name the
 * program can know names it, and hash tables that hold the name (a class
 * loader's locks) look the same in every run. Every method is @Hidden:
 * a StackOverflowError or OutOfMemoryError thrown inside a probe shows
 * no frame of it, in stack traces as in StackWalker. The agent makes a
 * run that looks up the class's members (reflection, method handles) or
 * defines a class whose pool names it fall back (fast/boot.c, fast/registry.c).
 */
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.Hidden;

public final class Probe {
    @Hidden
    private Probe() {}

    /** Counters of the threads now counting; the agent replaces the whole array (copy on write). */
    static volatile Probe[] counting = new Probe[0];

    /**
     * The counters of the one thread counting, null when none or several
     * count: what every probe looks at first. A field and the thread's
     * compare cost about half the instructions of a walk of `counting`
     * (its length, a bounds check, the loop). The agent writes it as null,
     * then `counting`, then it (fast/threads.c, publish), so that it never names a
     * thread the array does not hold.
     */
    static volatile Probe one;

    /** Bytecodes in each block, by id; grown through lengths0() when an id is past its end. */
    static int[] lengths = new int[0];

    /**
     * The branch site of the conditional branch that ends each block, by id
     * (bp_site(bp_seed(method name), offset of the branch in the original
     * code), common/branchpred.h; 0 for other blocks); grown through sites0().
     */
    static int[] sites = new int[0];

    /**
     * Per id, bit 0: the block's class is the program's (the application
     * class loader's); for block 0 of a method, above COST_SHIFT, its
     * frames' modelled stack use (push); grown through flags0().
     */
    static int[] flags = new int[0];

    /*
     * Segments (agent/fast/fast.c): lengths[id] holds the block's bytecodes
     * (bits 0..14), its first segment's (15..29), whether an allocation
     * ends that segment (bit 30) and whether the block is a goto to itself
     * (bit 31: the value is negative, ENDLESS); callSegs (by call site: after an invoke or
     * a new) and arraySegs (by array site: after an array instruction) the
     * segment after the instruction: its bytecodes (0..14), SEG_ALLOC (15)
     * and SEG_PROGRAM (16). Grown through callSegs0() and arraySegs0().
     */
    static int[] callSegs = new int[0], arraySegs = new int[0];
    static final int LEN = 0x7fff, SEG_ALLOC = 1 << 15, SEG_PROGRAM = 1 << 16;
    /*
     * The rewriter's constants (agent/classfile/instrument.h): a block's lengths,
     * INS_LEN_PACK (bytecodes in bits 0..6, its first segment's in 7..13,
     * bit 14 an allocation ends that segment); the segment after a call
     * or new site, INS_SEG_PACK (bytecodes in 0..11, bit 12 an allocation
     * ends it, bit 13 the program's, bit 14 set); a folded branch's
     * outcome, INS_FOLD_PACK (the site's 14 index bits, bit 14 taken).
     * 0 for the first two: too long to pack, the tables hold them.
     */
    static final int K_LEN = 0x7f, K_SEG_SHIFT = 7, K_ALLOC = 1 << 14;
    static final int S_LEN = 0xfff, S_ALLOC = 1 << 12, S_PROGRAM = 1 << 13;
    static final int F_SITE = 0x3fff, F_TAKEN_SHIFT = 14;
    /* In root0's value: an allocation ends the segment the root interrupts; the rest it lends, above bit 8. */
    static final int SEG_AFTER = 64, LEND_SHIFT = 8;
    /* common/calls.h: CALL_CLOSE_WINDOW */
    private static final long CLOSE_WINDOW = 100;

    /* The thread's bucket (mode): the work bucket, the overhead bucket, or
     * uncounted (an overhead root HotSpot runs with single-stepping hidden,
     * where the step engine sees no bytecode). */
    static final int WORK = 0, OVERHEAD = 1, HIDDEN = 2, MODE_MASK = 3;
    /* In rootModes: the JVM entered the root frame, not an invoke. */
    static final int VM_ENTERED = 4;
    /*
     * In rootModes: a static initializer the JVM runs for an invokestatic,
     * getstatic or putstatic of the program's, which the step engine runs
     * "as if called" and which leaves the invoke's pending call as it found
     * it (clinit.c): its exit puts the pending call back.
     */
    static final int TRANSPARENT = 8;
    /*
     * In rootModes (set here, not by the agent): the frame switched the
     * thread from WORK to OVERHEAD, where the step engine's root_enter saves
     * the step before it and its exit puts it back (saved_prev_op): its exit
     * puts callMark back.
     */
    static final int PUTS_BACK = 16;
    /* With TRANSPARENT: the first initializer run at that instruction, which clinit.c enters "as if called". */
    static final int AS_CALLED = 32;
    /*
     * In rootModes: a HIDDEN root whose program code the step engine counts
     * or refuses itself (an invokedynamic of the program's being linked):
     * hiddenRoot is negative then, and the run falls back instead of being
     * refused.
     */
    static final int STEP_SEES = 128;

    /* The simulated predictor (common/branchpred.h): BP_BITS, BP_HISTORY. */
    private static final int BP_ENTRIES = 1 << 14;
    private static final int BP_HISTORY_MASK = (1 << 12) - 1;

    /** The thread these counters belong to (set by the agent). */
    Thread thread;
    /** Hits per block id (the agent sizes it; grown here when a newer class's id is past its end). */
    long[] hits;
    /** Bytecodes counted on this thread since the agent last set it to 0. */
    long n;
    /**
     * The most bytecodes this thread may execute before the run passes the
     * bytecode limit: the limit less what earlier spans counted, set by the
     * agent when it switches the thread on. The probes that move the
     * position (pos, exact at every segment's end) past it call the agent
     * (limit), which stops the run on the bytecode the step engine stops on.
     */
    long bound;
    /** Frames of the measured method on this thread inside its extent; 0 outside one (the agent sets it). */
    int depth;
    /**
     * This thread's simulated branch predictor, as the step engine's (a port
     * of common/branchpred.h: gshare, BP_ENTRIES two-bit counters, all 0 at
     * first, the agent allocates them) and the last 12 outcomes; it lives as
     * long as the thread's counters, as the step engine's lives with its
     * thread state.
     */
    byte[] counters;
    int history;
    /** Conditional branches counted on this thread: executed, taken, mispredicted. */
    long conditional, taken, mispredicted;
    /**
     * Arrays made by array instructions on this thread, by array site (one
     * site per level an instruction makes, agent/classfile/instrument.h): how many,
     * and their elements. Made here when first needed.
     */
    long[] allocations, elements;
    /** Elements System.arraycopy copied on this thread (calls that returned); the length of the one under way. */
    long copied;
    int copying;
    /**
     * The same in OVERHEAD mode (the agent charges a site of the program's
     * there to the work bucket; the program's copies call programCopy).
     */
    long[] oallocations, oelements;
    long ocopied;
    /**
     * For the sites of made probes: the class of the arrays counted there
     * in the counters above (the first one seen at the site, in either
     * mode); an array of another class at the site is the agent's (made0).
     */
    Class<?>[] classes;

    /*
     * The overhead bucket: hits per block id (sized and grown with hits),
     * bytecodes since the agent last set it to 0, and its own predictor and
     * branch counts, as the step engine keeps one predictor per bucket.
     */
    long[] ohits;
    long on;
    byte[] ocounters;
    int ohistory;
    long oconditional, otaken, omispredicted;

    /** WORK, OVERHEAD or HIDDEN: the mode of the innermost overhead root frame entered while counting. */
    int mode;
    /**
     * Those root frames, innermost last: block 0's id and the mode each
     * opened (rootModes[sp - 1] & MODE_MASK == mode), with VM_ENTERED.
     */
    int[] rootIds;
    int[] rootModes;
    int sp;
    /**
     * Per open root frame: the pending call when it was entered, and how far
     * the total (n + on) had moved since that call's probe (TRANSPARENT
     * frames put them back at their exit).
     */
    int[] rootPending;
    long[] rootGap, rootCallGap;
    /** Per open root frame: the rest of its caller's segment it lent, and that segment's fence and its bucket. */
    int[] rootLend;
    long[] rootSegFence;
    int[] rootSegFenceB;
    /**
     * The bytecodes this thread executed in its span, exactly, in both
     * buckets: blocks count whole (n), but the position moves by segments,
     * so it is exact wherever a frame waits at a call (the agent sets it to
     * 0 when it switches the thread on).
     */
    long pos;
    /**
     * The position of the last method entry; while the span has none
     * (entry_far), FAR, so far back that nothing is close to it (the
     * agent sets it when it switches the thread on).
     */
    long entryAt;
    static final long FAR = Long.MIN_VALUE / 2;
    /** The allocation fence counted when the current segment began, and its bucket (-1: none). */
    long segFence;
    int segFenceB;
    /** Closeness of entries, native and allocation fences, in the work and the overhead bucket. */
    long close, oclose, fenceNative, ofenceNative, fenceAlloc, ofenceAlloc;
    /**
     * The call site whose call probe ran last on this thread and whose
     * return probe has not (site + 1; 0 for none: the agent sets it to 0
     * when it switches the thread on), and the total n + on then.
     */
    int pending;
    long pendingAt;
    /**
     * 1 when the agent holds arrays a native allocated while the pending
     * call was the last thing counted (the allocation event): the next
     * return probe hands them to the agent (nativeArrays0), which charges
     * them when that call was native, as the step engine charges what a
     * native call allocated, and drops them otherwise.
     */
    int nativeArrays;
    /**
     * By call site: nonzero once a call there returned with nothing counted
     * in between (its callee ran no bytecode: a native, or an intrinsic the
     * interpreter runs without a frame), as the step engine flags an invoke
     * whose next counted step is the instruction after it: 1 when its key
     * has a fence, 2 when not (callKind0). Made here when first needed.
     */
    byte[] natives;
    /**
     * The total n + on when this thread's last call probe ran, -1 after a
     * return probe: while the total has not moved since, the last counted
     * step was that invoke, and a method entered now is an entry, as the
     * step engine counts one at offset 0 right after an invoke. The agent
     * sets it to 0 with the totals when it switches the thread on, so the
     * first method entered is one (start_span).
     */
    long callMark;
    /** Method entries counted on this thread, in the work and the overhead bucket. */
    long entries, oentries;
    /** 1 + the id of the first block of the program's that ran in HIDDEN mode (the agent refuses the run), else 0. */
    int hidden;
    /** 1 + the id of the outermost HIDDEN root frame it ran inside (the JDK's frame that ran it), negated
     *  when that root has STEP_SEES, else 0. */
    int hiddenRoot;

    /*
     * Calling contexts (agent/profile/contexts.c, docs/fast-engine.md): this
     * thread's tree, as the step engine's ctx_tree, in arrays ctxInit
     * makes when the agent makes the counters (nothing is allocated on a
     * probe's path but the saved positions of a stack deeper than ever
     * before). Node 0 is the root; a node has its parent, its method (its
     * block 0's probe id), its call site (a call site, or SITE_AT - offset
     * for a frame the JVM entered at that instruction of its caller, or -1)
     * and, at ctxCount[4 * node], its own bytecodes by bucket, then its
     * `other` (callees that found the pool full) by bucket. The agent turns
     * them into the thread's ctx_tree when it collects the counts.
     */
    static final int CTX_NODES = 2048, CTX_SLOTS = 2 * CTX_NODES, SITE_AT = -2, FOLDED = 0x80000000;
    int[] ctxParent, ctxMethod, ctxSite, ctxSlots;
    /*
     * Per node: the child found last (its method and site as one key,
     * -1 for none, and its index), looked at before the hash table: a
     * call site in a loop enters the same child again and again.
     */
    long[] ctxLastKey;
    int[] ctxLastChild;
    long[] ctxCount;
    int ctxNodes;
    /*
     * The stack of runs (frames that share a node: a direct recursion, or
     * callees beyond the pool, FOLDED into the node's other): runNode,
     * runCount; ctxTop the current run, ctxCur the index in ctxCount of its
     * counters (bucket 0).
     */
    int[] runNode, runCount;
    int ctxTop, ctxCur;
    /*
     * The modelled stack use (agent/core/stackmodel.h, docs/determinism.md
     * "The stack"), as contexts.c keeps it for the step engine: per run, the
     * use of the frames below it (runBelow) and its frames' cost (runCost;
     * a folded run's frames are of different methods: foldUse[k], the use of
     * its first k). It is a function of the stack of runs alone, so whatever
     * pops frames (a return probe's restore, an exception's fix by the
     * agent) drops their use with them. A frame's cost is STACK_FRAME plus
     * its method's max_locals in the original class file: flags[block 0's
     * id] >>> COST_SHIFT (fast/registry.c).
     */
    int[] runBelow, runCost, foldUse;
    static final int STACK_FRAME = 16, STACK_BUDGET = 2097152, COST_SHIFT = 8;
    /* A run's frames: runCount without the flags a restored position can carry (JVM, ENTERED). */
    static final int FRAMES = 0x3fffffff;
    /*
     * Positions, (run << 32) | frames: one saved by each call probe for its
     * return probe (a call in progress), and one, with bit 31 of the frames
     * set (JVM), for each frame pushed without a call probe that no return
     * probe will pop (an exception's constructor the JVM runs); a return
     * probe drops those above its own.
     */
    long[] saved;
    int nsaved;
    static final long JVM = 0x80000000L, ENTERED = 0x40000000L;
    /* Per open root frame: the position and nsaved before its push (the root exit probe puts them back). */
    long[] rootCtx;
    int[] rootSaved;
    /*
     * The original offset of the instruction a frame the JVM entered was
     * entered from, and that frame's method (block 0's id): the agent sets
     * them in jvmEntered0 and root0; -1 unknown.
     */
    int ctxAt, ctxAtMethod;
    /*
     * The offset of the instruction a frame the JVM took an exception from
     * (a static initializer's) stopped at, -1 none: that frame stays
     * current, as in the step engine, and the next frame the JVM enters is
     * entered from there (the agent sets it at the exception).
     */
    int ctxLast;

    /** The agent makes the tree's arrays with the counters. */
    @Hidden
    void ctxInit() {
        ctxParent = new int[CTX_NODES];
        ctxMethod = new int[CTX_NODES];
        ctxSite = new int[CTX_NODES];
        ctxSlots = new int[CTX_SLOTS];
        ctxLastKey = new long[CTX_NODES];
        ctxLastChild = new int[CTX_NODES];
        for (int i = 0; i < CTX_NODES; i++)
            ctxLastKey[i] = -1;
        ctxCount = new long[4 * CTX_NODES];
        runNode = new int[CTX_NODES + 1];
        runCount = new int[CTX_NODES + 1];
        runBelow = new int[CTX_NODES + 1];
        runCost = new int[CTX_NODES + 1];
        foldUse = new int[1024];
        saved = new long[1024];
        ctxParent[0] = ctxMethod[0] = ctxSite[0] = -1;
        ctxNodes = 1;
        ctxLast = -1;
        runCount[0] = 1; /* the root's run: the agent puts the stack back there when the thread is switched on */
    }

    /*
     * A frame of method `id` begins, called from `site`: as ctx_enter, which
     * also checks the modelled stack use against the budget first (the
     * agent stops the run there: deep0).
     */
    @Hidden
    private void push(int id, int site) {
        int cost = cost(id), top = ctxTop, r = runNode[top];
        if (r < 0) {
            pushFolded(id, top);
            return;
        }
        int below = runBelow[top] + (runCount[top] & FRAMES) * runCost[top];
        if (below + cost > STACK_BUDGET) {
            pushDeep(id, site);
            return;
        }
        if ((top > 0 && ctxMethod[r] == id) || top == CTX_NODES) {
            again(top);
            return;
        }
        if (ctxLastKey[r] != key(id, site)) { /* not the child found last */
            pushNew(id, site);
            return;
        }
        open(r, ctxLastChild[r], below, cost);
    }

    /*
     * push's rare paths, each a call push makes last, with few arguments
     * (C1 stores to the stack, on every path, the values that live across
     * a call, and inlines push only while its locals and stack are few):
     * past the budget (deep0 returns when the run ends otherwise, and the
     * frame is pushed as below it), and a child other than the one found
     * last. Each works out push's values again, from the same state.
     */
    @DontInline
    @Hidden
    private void pushDeep(int id, int site) {
        int cost = cost(id), top = ctxTop, r = runNode[top];
        int below = runBelow[top] + (runCount[top] & FRAMES) * runCost[top];
        deep(id, below + cost);
        if ((top > 0 && ctxMethod[r] == id) || top == CTX_NODES) {
            again(top);
            return;
        }
        open(r, child(r, id, site), below, cost);
    }

    @DontInline
    @Hidden
    private void pushNew(int id, int site) {
        int cost = cost(id), top = ctxTop, r = runNode[top];
        open(r, child(r, id, site), runBelow[top] + (runCount[top] & FRAMES) * runCost[top], cost);
    }

    /* child's key for (id, site): ctxLastKey's. */
    @Hidden
    private static long key(int id, int site) {
        return (long) id << 32 | (site & 0xffffffffL);
    }

    /* One more frame in run top (not inline in push: its stack slots count against push's inlining). */
    @Hidden
    private void again(int top) {
        runCount[top]++;
    }

    /*
     * push's parts, methods of their own so that push stays within C1's
     * limits for inlining (its size, and its locals and stack slots) and
     * inlines into enteredBlock, where it was a call at every method entry.
     * pushFolded: one more frame in the current run, a folded one (its
     * frames are of different methods: their use is in foldUse), the rare
     * case of callees beyond the pool of nodes.
     */
    @DontInline
    @Hidden
    private void pushFolded(int id, int top) {
        int k = runCount[top] & FRAMES, used = foldUse[k], cost = cost(id);
        if (runBelow[top] + used + cost > STACK_BUDGET)
            deep(id, runBelow[top] + used + cost);
        runCount[top]++;
        foldAt(k + 1, used + cost);
    }

    /*
     * open: the new run of node c, the child of node r (-1: none, the pool
     * is full), above the current run: the use below it and its frames'
     * cost.
     */
    @Hidden
    private void open(int r, int c, int below, int cost) {
        int top = ++ctxTop;
        runCount[top] = 1;
        runBelow[top] = below;
        runCost[top] = cost;
        if (c < 0) {
            runNode[top] = r | FOLDED;
            ctxCur = 4 * r + 2;
            foldAt(1, cost);
        } else {
            runNode[top] = c;
            ctxCur = 4 * c;
        }
    }

    /* The modelled cost of a frame of the method whose block 0 is id. */
    @Hidden
    private static int cost(int id) {
        int[] f = flags;
        return id < f.length ? f[id] >>> COST_SHIFT : costSlow(id);
    }

    @DontInline
    @Hidden
    private static int costSlow(int id) {
        int[] f = flags = flags0(id);
        return id < f.length ? f[id] >>> COST_SHIFT : STACK_FRAME; /* an id the agent never handed out: reported */
    }

    /* The folded run's first k frames use u words. */
    @Hidden
    private void foldAt(int k, int u) {
        int[] f = foldUse;
        if (k >= f.length)
            f = growFold();
        f[k] = u;
    }

    @DontInline
    @Hidden
    private int[] growFold() {
        int[] v = foldUse, w = new int[v.length * 2];
        for (int i = 0; i < v.length; i++)
            w[i] = v[i];
        return foldUse = w;
    }

    /* The frame of id would take the use to `use` words, past the budget: the agent stops the run (deep0). */
    @DontInline
    @Hidden
    private void deep(int id, int use) {
        long frames = 1;
        for (int i = 1; i <= ctxTop; i++)
            frames += runCount[i] & FRAMES;
        deep0(id, frames > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) frames, use);
    }

    /* The child of parent for (id, site), made when missing; -1 when the pool is full (contexts.c, child_of). */
    @Hidden
    private int child(int parent, int id, int site) {
        long key = key(id, site);
        if (ctxLastKey[parent] == key)
            return ctxLastChild[parent];
        int c = lookup(parent, id, site);
        if (c >= 0) {
            ctxLastKey[parent] = key;
            ctxLastChild[parent] = c;
        }
        return c;
    }

    /* child's hash table: the node, made when missing; -1 when the pool is full. */
    @Hidden
    private int lookup(int parent, int id, int site) {
        int h = parent * 0x9E3779B1 ^ id * 0x85EBCA77 ^ site * 0xC2B2AE3D;
        h ^= h >>> 15;
        int s = h & (CTX_SLOTS - 1);
        int[] sl = ctxSlots;
        for (;;) {
            int v = sl[s] - 1;
            if (v < 0)
                break;
            if (ctxParent[v] == parent && ctxMethod[v] == id && ctxSite[v] == site)
                return v;
            s = (s + 1) & (CTX_SLOTS - 1);
        }
        if (ctxNodes == CTX_NODES)
            return -1;
        int i = ctxNodes++;
        ctxParent[i] = parent;
        ctxMethod[i] = id;
        ctxSite[i] = site;
        sl[s] = i + 1;
        return i;
    }

    /*
     * The site of a frame the JVM entered: where the frame it left stopped,
     * or the instruction of the current frame it entered it at (not known
     * when it entered it from another frame: as the step engine, whose
     * site is its last step's offset, in the current frame's method).
     */
    @Hidden
    private int jvmSite() {
        int at = ctxLast >= 0 ? ctxLast : ctxAtMethod >= 0 && ctxAtMethod == method() ? ctxAt : -1;
        ctxLast = -1;
        return at >= 0 ? SITE_AT - at : -1;
    }

    /* The method of the current run (block 0's id), -1 at the root. */
    @Hidden
    private int method() {
        return ctxTop == 0 ? -1 : ctxMethod[runNode[ctxTop] & ~FOLDED];
    }

    @Hidden
    private long position() {
        return (long) ctxTop << 32 | runCount[ctxTop];
    }

    /* Back to a position taken before a push: the frames pushed since are gone (ctx_restore). */
    @Hidden
    private void restore(long q) {
        int top = (int) (q >>> 32);
        if (top > ctxTop)
            return;
        ctxTop = top;
        runCount[top] = (int) q & 0x7fffffff;
        int r = runNode[top];
        ctxCur = r < 0 ? 4 * (r & ~FOLDED) + 2 : 4 * r;
    }

    @Hidden
    private void save(long q) {
        long[] v = saved;
        int k = nsaved;
        if (k == v.length)
            v = growSaved();
        v[k] = q;
        nsaved = k + 1;
    }

    @DontInline
    @Hidden
    private long[] growSaved() {
        long[] v = saved, w = new long[v.length * 2];
        for (int i = 0; i < v.length; i++)
            w[i] = v[i];
        return saved = w;
    }

    /**
     * Whether block probes on threads that are not counting report their
     * blocks while another thread counts (the agent sets it at VMInit; past
     * the bystanders' allowance they go on reporting until the program's
     * code shows on one, fast/probes.c).
     */
    static boolean watching;

    /*
     * The probes the JIT inlines at every site are written for C1: each is
     * one public method whose body does the lookup of the thread's counters
     * itself, and what they call inline is small and shallow, because C1
     * allows a callee 90% of its caller's size limit at each level of
     * inlining (C1MaxInlineSize at the top) and stops inlining into a
     * method once it holds DesiredMethodLimit bytes of bytecode, dead
     * branches of the probes included; everything rare is @DontInline.
     */

    /**
     * The block probe (k >= 0: the block's packed lengths), the entry-block
     * probe (k < 0: ~lengths), the root probes (k = ~ROOT, lengths no
     * block packs to: root(id), root(~id)) and the call, return and new
     * probes (id < 0: ~their site; k their constant, never ~ROOT).
     */
    @Hidden
    public static void Code(int id, int k) {
        if (id < 0 && k != ~ROOT) {
            call(~id, k);
            return;
        }
        if (k < 0) {
            if (k == ~ROOT)
                root(id);
            else
                enteredBlock(id, ~k);
            return;
        }
        Probe p = one;
        if (p == null || p.thread != Thread.currentThread()) {
            if (counting.length == 0)
                return;
            blockElse(id, k);
            return;
        }
        p.hit(id, k);
    }

    /*
     * The block probe on a thread other than `one`'s while some thread
     * counts: several count, or this one is a bystander. One call in the
     * inlined probe where find and bystander were two: each call site C1
     * compiles carries its debug information, at every block.
     */
    @DontInline
    @Hidden
    private static void blockElse(int id, int k) {
        Probe p = find();
        if (p != null)
            p.hit(id, k);
        else if (watching)
            bystander(id);
    }

    /**
     * The if<cond> branch probe (a: the value, b: the opcode, c: the id of
     * its block, >= 0), and (c < 0) the probe of a block whose only way in
     * is one outcome of a conditional branch whose other outcome leads to
     * another such block, the branch having no probe of its own (a: the
     * block's id, b: its lengths, ~c: the outcome): the outcome, then the
     * block, as a branch probe right before the branch and the block's
     * probe right after it would count them.
     */
    @Hidden
    public static void Code(int a, int b, int c) {
        if (c >= 0) {
            branch(a, b, c);
            return;
        }
        /*
         * The folded branch: block a, its lengths b, the outcome ~c
         * (INS_FOLD_PACK), written out here rather than in methods of its
         * own: each level of inlining leaves a callee 90% of its caller's
         * size limit, and two levels more put hit past C1's limit where the
         * probe sits a few inlined calls deep (Integer.compare inside
         * compareTo's bridge: hit became a call at every block).
         */
        Probe p = one;
        if (p == null || p.thread != Thread.currentThread()) {
            if (counting.length == 0)
                return;
            foldedOther(a, b, ~c);
            return;
        }
        int f = ~c;
        if (p.mode != WORK) {
            p.foldedElse(a, b, f & F_SITE, f >>> F_TAKEN_SHIFT);
            return;
        }
        p.predictAt(f & F_SITE, f >>> F_TAKEN_SHIFT);
        p.hit(a, b);
    }

    /* The folded branch on a thread other than `one`'s while some thread counts (as blockElse): outcome f, then block a. */
    @DontInline
    @Hidden
    private static void foldedOther(int a, int b, int f) {
        Probe p = find();
        if (p == null) {
            if (watching)
                bystander(a);
            return;
        }
        if (p.mode != WORK) {
            p.foldedElse(a, b, f & F_SITE, f >>> F_TAKEN_SHIFT);
            return;
        }
        p.predictAt(f & F_SITE, f >>> F_TAKEN_SHIFT);
        p.hit(a, b);
    }

    /* The if<cond> branch probe: value v, opcode op, the id of its block. */
    @Hidden
    private static void branch(int v, int op, int id) {
        Probe p = current();
        if (p != null)
            p.outcome(id, test(v, op & 0xff) ? 1 : 0);
    }

    /**
     * The return probe (s: the segment after the invoke, 0 or with bit 14
     * set), the new probe (s < 0: ~the segment after the new) and the call
     * probe (s = INS_CALL_CONST, 1), which call Code(~site, s).
     */
    @Hidden
    private static void call(int site, int s) {
        Probe p = one;
        if (p == null || p.thread != Thread.currentThread())
            if (counting.length == 0 || (p = find()) == null)
                return;
        if (p.mode == HIDDEN)
            return;
        if (s == CALL) {
            if (p.pos > p.bound) /* only while the agent waits for the next probe to stop the run: before the invoke */
                p.limit(LIMIT_INVOKE, site);
            p.pending = site + 1;
            p.pendingAt = p.callMark = p.n + p.on;
            p.save(p.position());
        } else if (s >= 0) {
            p.returned(site, s);
        } else {
            p.callSegment(site, ~s);
            if (p.pos > p.bound)
                p.limit(LIMIT_CALL, site);
        }
    }

    /* The call probe's constant (agent/classfile/instrument.h, INS_CALL_CONST). */
    static final int CALL = 1;
    /* The root probes' (INS_ROOT_CONST). */
    static final int ROOT = 1 << 7;

    /*
     * A block began on a thread that is not counting while another thread
     * counts: a bystander, whose work the step engine watches bytecode by
     * bytecode; the agent charges the block's length to the same allowance.
     */
    @DontInline
    @Hidden
    private static void bystander(int id) {
        int[] len = lengths;
        if (id >= len.length) {
            len = lengths = lengths0(id);
            if (id >= len.length)
                return; /* an id the agent never handed out: it has reported the failure */
        }
        bystander0(len[id] & LEN, program(id));
    }

    /* The counters of the current thread, or null when it is not counting. */
    @Hidden
    private static Probe current() {
        Probe p = one;
        if (p != null && p.thread == Thread.currentThread())
            return p;
        return counting.length == 0 ? null : find();
    }

    /* The current thread's counters from `counting` (several threads count, or another one does), or null. */
    @DontInline
    @Hidden
    private static Probe find() {
        Probe[] c = counting;
        Thread t = Thread.currentThread();
        for (int i = 0; i < c.length; i++)
            if (c[i].thread == t)
                return c[i];
        return null;
    }

    /**
     * The measured method is entered (its first instruction; only it has
     * this probe, with its block 0's id): on a thread that is not counting
     * the agent opens an extent (where the step engine's breakpoint would),
     * inside an extent it is a recursive call.
     */
    @Hidden
    public static void enter(int id) {
        Probe p = current();
        if (p == null) {
            begin0();
            p = current();
        } else if (p.depth > 0) {
            p.depth++;
        }
        if (p != null) {
            p.entry(id);
            if (p.mode != HIDDEN)
                p.push(id, p.callMark == p.n + p.on ? p.pending - 1 : -1);
        }
    }

    /**
     * Any other method is entered (its first instruction, with its block
     * 0's id; not a loop back to it): an entry when the last counted step
     * was an invoke. The other entry probe: named SourceFile, as the call
     * probe.
     */
    @Hidden
    public static void SourceFile(int id) {
        Probe p = current();
        if (p == null || p.mode == HIDDEN)
            return;
        if (p.callMark == p.n + p.on) {
            p.countEntry(id);
            p.push(id, p.pending - 1);
        } else {
            p.ctxAt = p.ctxAtMethod = -1;
            jvmEntered0(id, 3); /* the JVM entered it: an exception's constructor (called from the probe
                                   itself: the agent reads the frame below it at depth 3) */
            p.jvmEntry(id);
        }
    }

    /**
     * SourceFile(id) (the other entry), then block(id, k): what the
     * rewriter puts at offset 0 of a method where no jump lands on offset 0
     * (block 0 then starts only on entry), one lookup of the thread's counters instead of two. Not
     * inlined: inlined at every entry, it made the compiled methods larger
     * and cost more instructions than the call (callgrind, the merge sort).
     */
    @DontInline
    @Hidden
    private static void enteredBlock(int id, int k) {
        Probe p = one;
        if (p == null || p.thread != Thread.currentThread()) {
            if (counting.length == 0)
                return;
            p = find();
            if (p == null) {
                if (watching)
                    bystander(id);
                return;
            }
        }
        if (p.mode != WORK || p.callMark != p.n + p.on) {
            p.enteredElse(id, k);
            return;
        }
        p.workEntry();
        p.push(id, p.pending - 1);
        p.hit(id, k);
    }

    /*
     * enteredBlock's other cases, a call it makes last (C1 stores to the
     * stack, on every path, the values that live across a call): another
     * mode than WORK, or a frame the JVM entered.
     */
    @DontInline
    @Hidden
    private void enteredElse(int id, int k) {
        if (mode != HIDDEN) {
            if (callMark == n + on) {
                countEntry(id);
                push(id, pending - 1);
            } else {
                ctxAt = ctxAtMethod = -1;
                jvmEntered0(id, 5); /* as in SourceFile(I), with enteredBlock's frame and this one's between */
                jvmEntry(id);
            }
        }
        hit(id, k);
    }

    /* After jvmEntered0: the method was entered by the JVM, not by an invoke. */
    @DontInline
    @Hidden
    private void jvmEntry(int id) {
        /* frames the JVM entered before returned unseen when it enters this one from another */
        while (ctxAtMethod >= 0 && nsaved > 0 && (saved[nsaved - 1] & ENTERED) != 0 && method() != ctxAtMethod)
            restore(saved[--nsaved]);
        long q = position();
        push(id, jvmSite());
        save(q | JVM | ENTERED); /* no return probe pops it */
    }

    @Hidden
    private void entry(int id) {
        if (mode != HIDDEN && callMark == n + on)
            countEntry(id);
    }

    /* countEntry in WORK mode. */
    @Hidden
    private void workEntry() {
        entries++;
        close += closeness(pos - entryAt);
        entryAt = pos;
    }

    /* One entry, in the bucket of the block that follows (the program's code is work in OVERHEAD mode too). */
    @Hidden
    private void countEntry(int id) {
        long c = closeness(pos - entryAt);
        if (mode == OVERHEAD && !program(id)) {
            oentries++;
            oclose += c;
        } else {
            entries++;
            close += c;
        }
        entryAt = pos;
    }

    /* common/calls.h: how close an event `gap` bytecodes after the last entry is. */
    @Hidden
    private static long closeness(long gap) {
        return gap < CLOSE_WINDOW ? CLOSE_WINDOW - gap : 0;
    }

    /* A segment starts (s: its length and SEG_ALLOC), in bucket b: the position moves to its end; an allocation there has its fence now. */
    @Hidden
    private void segment(int s, int b) {
        pos += s & LEN;
        if ((s & SEG_ALLOC) != 0)
            allocFence(b);
    }

    /* A segment that ends at an allocation began, in bucket b: its fence, at the position it ends. */
    @DontInline
    @Hidden
    private void allocFence(int b) {
        long f = closeness(pos - entryAt);
        if (b == WORK)
            fenceAlloc += f;
        else
            ofenceAlloc += f;
        segFence = f;
        segFenceB = b;
    }

    /* The segment after call site `site` (an invoke that returned, a new that allocated), from the table. */
    @DontInline
    @Hidden
    private void callSegment(int site) {
        int[] t = callSegs;
        if (site >= t.length) {
            t = callSegs = callSegs0(site);
            if (site >= t.length)
                return; /* a site the agent never handed out: it has reported the failure */
        }
        int s = t[site];
        segment(s, mode == OVERHEAD && (s & SEG_PROGRAM) == 0 ? OVERHEAD : WORK);
    }

    /* The segment after the array instruction whose first array site is `site`. */
    @Hidden
    private void arraySegment(int site) {
        int[] t = arraySegs;
        if (site >= t.length) {
            t = arraySegs = arraySegs0(site);
            if (site >= t.length)
                return;
        }
        int s = t[site];
        segment(s, mode == OVERHEAD && (s & SEG_PROGRAM) == 0 ? OVERHEAD : WORK);
    }

    /* The segment after call site `site` given by the rewriter's constant s (0: from the table). */
    @Hidden
    private void callSegment(int site, int s) {
        if (s == 0) {
            callSegment(site);
            return;
        }
        /* segment's work, the bucket worked out only for an allocation: s is a constant the JIT folds */
        pos += s & S_LEN;
        if ((s & S_ALLOC) != 0)
            allocFence(mode == OVERHEAD && (s & S_PROGRAM) == 0 ? OVERHEAD : WORK);
    }


    /*
     * Branch probes, right before each conditional branch, with the operands
     * it is about to compare (duplicated), its opcode (sign-extended by
     * bipush) and its block's id: the same comparison gives the outcome,
     * fed to the thread's predictor before the branch takes it (if<cond>'s
     * is Code(III)V, above, and if_icmp<cond>'s too: the rewriter passes
     * the sign of the difference, computed in longs, and the if<cond>
     * that tests it; so do ifnull and ifnonnull in the boot loader's
     * classes, with instanceof Object).
     */

    /** ifnull, ifnonnull (of classes outside the boot loader): as ifeq, ifne of 0 for null. */
    @Hidden
    public static void Code(Object v, int op, int id) {
        Probe p = current();
        if (p != null)
            p.outcome(id, test(v == null ? 0 : 1, (op & 0xff) == 0xc6 ? 0x99 : 0x9a) ? 1 : 0);
    }

    /** if_acmpeq, if_acmpne: as ifeq, ifne of 0 for the same object. */
    @Hidden
    public static void Code(Object a, Object b, int op, int id) {
        Probe p = current();
        if (p != null)
            p.outcome(id, test(a == b ? 0 : 1, (op & 0xff) - 12) ? 1 : 0);
    }

    /* The outcome of if<cond> (op 0x99 ifeq .. 0x9e ifle) on c. */
    @Hidden
    private static boolean test(int c, int op) {
        switch (op) {
        case 0x99: return c == 0;
        case 0x9a: return c != 0;
        case 0x9b: return c < 0;
        case 0x9c: return c >= 0;
        case 0x9d: return c > 0;
        default: return c <= 0;
        }
    }

    /*
     * One outcome (t: 1 taken, 0 not) of the branch ending block id:
     * bp_branch of common/branchpred.h, without branches of its own (the
     * outcomes of a program's data-dependent branches are what a real CPU
     * cannot predict, so neither could it predict branches here).
     */
    @Hidden
    private void outcome(int id, int t) {
        if (mode != WORK && !program(id)) {
            if (mode == OVERHEAD)
                overheadOutcome(id, t);
            return;
        }
        if (mode == HIDDEN)
            return;
        int[] s = sites;
        if (id >= s.length) {
            s = sites = sites0(id);
            if (id >= s.length)
                return; /* an id the agent never handed out: it has reported the failure */
        }
        predict(s[id], t);
    }

    /* A folded branch's outcome and its block in a mode other than WORK. */
    @DontInline
    @Hidden
    private void foldedElse(int id, int k, int site, int t) {
        outcomeAt(id, site, t);
        hit(id, k);
    }

    /*
     * The work bucket's predictor for a folded branch, whose outcome t is a
     * constant the JIT folds (so are the site, the counter's step and the
     * count of taken branches): as predict.
     */
    @Hidden
    private void predictAt(int site, int t) {
        byte[] ctr = counters;
        int i = (site ^ history) & (BP_ENTRIES - 1);
        int c = ctr[i];
        mispredicted += (c >> 1) ^ t;
        if (t != 0)
            taken++;
        conditional++;
        int d = c + t + t - 1;
        ctr[i] = (byte) (d - (d >> 2));
        history = ((history << 1) | t) & BP_HISTORY_MASK;
    }

    /* A folded branch's outcome t at `site` (its 14 index bits), in the block id that it leads to: as outcome. */
    @Hidden
    private void outcomeAt(int id, int site, int t) {
        if (mode != WORK && !program(id)) {
            if (mode == OVERHEAD)
                overheadPredict(site, t);
            return;
        }
        if (mode == HIDDEN)
            return;
        predict(site, t);
    }

    /*
     * The work bucket's predictor: bp_branch. The counter c moves one step
     * toward the outcome, saturating at 0 and 3: d = c + 1 or c - 1, less
     * one where d is 4 or -1 (d >> 2 is then 1 or -1, else 0).
     */
    @Hidden
    private void predict(int site, int t) {
        byte[] ctr = counters;
        int i = (site ^ history) & (BP_ENTRIES - 1);
        int c = ctr[i];
        mispredicted += (c >> 1) ^ t; /* predicted taken when the counter is 2 or 3 */
        taken += t;
        conditional++;
        int d = c + t + t - 1;
        ctr[i] = (byte) (d - (d >> 2));
        history = ((history << 1) | t) & BP_HISTORY_MASK;
    }

    /* The same in the overhead bucket, with its own predictor. */
    @DontInline
    @Hidden
    private void overheadOutcome(int id, int t) {
        int[] s = sites;
        if (id >= s.length) {
            s = sites = sites0(id);
            if (id >= s.length)
                return;
        }
        overheadPredict(s[id], t);
    }

    @DontInline
    @Hidden
    private void overheadPredict(int site, int t) {
        byte[] ctr = ocounters;
        int i = (site ^ ohistory) & (BP_ENTRIES - 1);
        int c = ctr[i];
        omispredicted += (c >> 1) ^ t;
        otaken += t;
        oconditional++;
        int d = c + t + t - 1;
        ctr[i] = (byte) (d - (d >> 2));
        ohistory = ((ohistory << 1) | t) & BP_HISTORY_MASK;
    }

    /** The measured method returns (before each of its return instructions): the outermost frame's return ends the extent. */
    @Hidden
    public static void exit(int id) {
        Probe p = current();
        if (p != null && p.depth > 0 && --p.depth == 0)
            end0();
    }

    /**
     * An overhead root is entered (its first instruction; with block 0's
     * id): a JDK static initializer, a class loader's loadClass(String),
     * method-handle linkage, the program's static initializers. On a counting
     * thread the agent decides which mode the frame runs in, from where the
     * JVM entered it (root0); inside a HIDDEN frame everything stays hidden.
     * The root entry probe (id >= 0) and, with ~id, the root exit probe:
     * Code(id or ~id, ~ROOT), the block probe's method (the class comment
     * says why), so that root0 reads the root's frame at depth 3 (root0,
     * this, Code).
     */
    @Hidden
    private static void root(int id) {
        if (id < 0) {
            rootExit(~id);
            return;
        }
        Probe p = current();
        if (p == null)
            return;
        /* inside a hidden frame: hidden too, and (as roots are entered) by the JVM */
        int was = p.mode;
        p.ctxAt = p.ctxAtMethod = -1;
        int r = was == HIDDEN ? HIDDEN | VM_ENTERED : root0(id, was);
        int m = r & ((1 << LEND_SHIFT) - 1), lend = r >>> LEND_SHIFT;
        int[] ids = p.rootIds;
        if (ids == null || p.sp == ids.length) {
            int cap = ids == null ? 16 : ids.length * 2;
            int[] ni = new int[cap], nm = new int[cap], np = new int[cap], nl = new int[cap], nb = new int[cap];
            long[] ng = new long[cap], nc = new long[cap], nf = new long[cap], nx = new long[cap];
            int[] ns = new int[cap];
            for (int i = 0; i < p.sp; i++) {
                ni[i] = ids[i];
                nm[i] = p.rootModes[i];
                np[i] = p.rootPending[i];
                ng[i] = p.rootGap[i];
                nc[i] = p.rootCallGap[i];
                nl[i] = p.rootLend[i];
                nf[i] = p.rootSegFence[i];
                nb[i] = p.rootSegFenceB[i];
                nx[i] = p.rootCtx[i];
                ns[i] = p.rootSaved[i];
            }
            p.rootCtx = nx;
            p.rootSaved = ns;
            p.rootIds = ids = ni;
            p.rootModes = nm;
            p.rootPending = np;
            p.rootGap = ng;
            p.rootCallGap = nc;
            p.rootLend = nl;
            p.rootSegFence = nf;
            p.rootSegFenceB = nb;
        }
        if (p.mode == WORK && (m & MODE_MASK) == OVERHEAD)
            m |= PUTS_BACK;
        ids[p.sp] = id;
        p.rootPending[p.sp] = p.pending;
        p.rootGap[p.sp] = p.n + p.on - p.pendingAt;
        p.rootCallGap[p.sp] = p.n + p.on - p.callMark;
        p.rootLend[p.sp] = lend;
        p.rootSegFence[p.sp] = p.segFence;
        p.rootSegFenceB[p.sp] = p.segFenceB;
        p.rootCtx[p.sp] = p.position();
        p.rootSaved[p.sp] = p.nsaved;
        p.pos -= lend; /* the rest of the caller's segment has not run */
        p.rootModes[p.sp++] = m;
        p.mode = m & MODE_MASK;
        /* its frame, called by an invoke or entered by the JVM at an instruction (root0 read which), or
         * by the JVM inside a native with nothing counted since its call (no instruction: ctxAtMethod is
         * -1), where the step engine's last step is the native's invoke too */
        if (p.mode != HIDDEN)
            p.push(id, ((m & VM_ENTERED) == 0 || p.ctxAtMethod < 0) && p.callMark == p.n + p.on ? p.pending - 1
                                                                                            : p.jvmSite());
        /* clinit.c runs the first such initializer as if the instruction
         * called it; the others it needs follow that one's last step */
        if ((m & TRANSPARENT) == 0)
            p.entry(id);
        else if ((m & AS_CALLED) != 0 && p.mode != HIDDEN)
            p.countEntry(id);
    }

    /**
     * An overhead root returns (before each of its return instructions,
     * the root exit probe: Code(~id, ~ROOT)): its frame's mode ends.
     */
    @Hidden
    private static void rootExit(int id) {
        Probe p = current();
        if (p == null)
            return;
        /* its entry, and any above it that an exception left open */
        int s = p.sp;
        while (s > 0 && p.rootIds[s - 1] != id)
            s--;
        if (s > 0) {
            p.sp = --s;
            p.mode = s > 0 ? p.rootModes[s - 1] & MODE_MASK : WORK;
            p.restore(p.rootCtx[s]); /* its frame and any the JVM entered in it are gone */
            p.nsaved = p.rootSaved[s];
            if ((p.rootModes[s] & TRANSPARENT) != 0) { /* the pending call, as if nothing had run */
                p.pending = p.rootPending[s];
                p.pendingAt = p.n + p.on - p.rootGap[s];
            }
            if ((p.rootModes[s] & (TRANSPARENT | PUTS_BACK)) != 0) /* the step before the frame */
                p.callMark = p.n + p.on - p.rootCallGap[s];
            p.pos += p.rootLend[s];
            p.segFence = p.rootSegFence[s];
            p.segFenceB = p.rootSegFenceB[s];
            if ((p.rootModes[s] & SEG_AFTER) != 0 && p.segFenceB >= 0) {
                /* the allocation ending the caller's segment: its fence from the entry that is last now */
                long f = closeness(p.pos - p.entryAt);
                if (p.segFenceB == WORK)
                    p.fenceAlloc += f - p.segFence;
                else
                    p.ofenceAlloc += f - p.segFence;
                p.segFence = f;
            }
            if (p.pos > p.bound) /* the rest of the caller's segment, given back, may hold the limit */
                p.limit(LIMIT_ROOT_EXIT, id);
        }
    }

    /*
     * Call probes, right before each invoke (invokedynamic too) and right
     * after it, where only a call that returned gets: the call site. A call
     * whose return probe finds its site still pending and the total where
     * the call probe left it ran no counted bytecode in between (HIDDEN
     * frames count none, and their probes leave the pending call alone),
     * the step engine's native call.
     */


    /* After an invoke, when the call returned (the return probe): its call site and the segment after it. */
    @Hidden
    private void returned(int site, int s) {
        boolean nat = pending == site + 1 && n + on == pendingAt;
        if (nat)
            nativeCall(site);
        if (nativeArrays != 0)
            nativeArrays(site, nat);
        pending = 0;
        callMark = -1;
        callSegment(site, s);
        /* the callee's frames are gone, with any the JVM entered and no return probe popped */
        int k = nsaved;
        while (k > 0) {
            long q = saved[--k];
            if ((int) q >= 0) { /* (q & JVM) == 0: JVM is the int's sign bit, which no run's count reaches */
                restore(q);
                break;
            }
        }
        nsaved = k;
        if (pos > bound) /* in the caller's frame again: the segment after the invoke may hold the limit */
            limit(LIMIT_CALL, site);
    }

    @DontInline
    @Hidden
    private void nativeCall(int site) {
        byte[] f = natives;
        if (f == null || site >= f.length) {
            int known = callSites0(site);
            if (site < 0 || site >= known)
                return; /* a site the agent never handed out: it has reported the failure */
            int cap = f == null || f.length * 2 < known ? known : f.length * 2; /* not Math.max: instrumented */
            byte[] g = new byte[cap];
            if (f != null)
                for (int i = 0; i < f.length; i++)
                    g[i] = f[i];
            natives = f = g;
        }
        if (f[site] == 0)
            f[site] = (byte) callKind0(site);
        /* it returned through a fence, unless the key has none (a Math interpreter intrinsic) */
        if (f[site] == 1) {
            long c = closeness(pos - entryAt);
            if (mode == OVERHEAD)
                ofenceNative += c;
            else
                fenceNative += c;
        }
    }

    /* Arrays a native allocated wait in the agent: charged to the call at
     * site when it was native (nat), else dropped. */
    @DontInline
    @Hidden
    private void nativeArrays(int site, boolean nat) {
        nativeArrays = 0;
        nativeArrays0(site, nat);
    }

    /* Block id begins, k its packed lengths (0: the table's). */
    @Hidden
    private void hit(int id, int k) {
        long[] h = hits;
        if (k == 0 || mode != WORK || id >= h.length) {
            hitElse(id, k);
            return;
        }
        int len = k & K_LEN;
        h[id]++;
        n += len;
        ctxCount[ctxCur] += len;
        pos += (k >>> K_SEG_SHIFT) & K_LEN;
        if ((k & K_ALLOC) != 0)
            allocFence(WORK);
        if (pos > bound)
            limit(LIMIT_BLOCK, id);
    }

    /* hit's other cases: the lengths in the table, a mode other than WORK, hits to grow. */
    @DontInline
    @Hidden
    private void hitElse(int id, int k) {
        if (k == 0) {
            hit(id);
            return;
        }
        if (id >= hits.length && !grow(id))
            return; /* an id the agent never handed out: it has reported the failure */
        if (mode != WORK) {
            other(id);
            return;
        }
        hit(id, k);
    }

    /* The same with the lengths from the agent's table (a block too long to pack). */
    @DontInline
    @Hidden
    private void hit(int id) {
        long[] h = hits;
        int[] len = lengths;
        if (id >= h.length || id >= len.length) {
            if (!grow(id))
                return; /* an id the agent never handed out: it has reported the failure */
            h = hits;
            len = lengths;
        }
        if (mode != WORK) {
            other(id);
            return;
        }
        int v = len[id];
        h[id]++;
        n += v & LEN;
        ctxCount[ctxCur] += v & LEN;
        segment((v >>> 15) & (LEN | SEG_ALLOC), WORK);
        if (pos > bound)
            limit(LIMIT_BLOCK, id);
        if (v < 0) /* ENDLESS */
            limit(LIMIT_ENDLESS, id);
    }

    /*
     * The thread's position passed its bound: the segment that just began
     * (in a block probe, LIMIT_BLOCK, with the block's id; after a call or
     * new site, LIMIT_CALL, or an array site, LIMIT_ARRAY; the rest of the
     * segment a root frame the JVM entered lent, at its exit,
     * LIMIT_ROOT_EXIT, with the root's block 0 id) holds the
     * bytecode at which the run passes the bytecode limit. The agent stops
     * the run there (limit0 does not return then), or says the bound to
     * keep: the same, to be asked again at the next segment, or none.
     * While it keeps the bound (the stop waits for the thread's next probe),
     * the call probe (LIMIT_INVOKE) and the array probe before it counts
     * the instruction's arrays (LIMIT_ARRAY_BEFORE) ask too. A block that
     * is a goto to itself (an endless loop, ENDLESS in its lengths) asks
     * each time its probe counted it (LIMIT_ENDLESS): the step engine stops
     * the run at its first execution, under any limit.
     */
    static final int LIMIT_BLOCK = 0, LIMIT_CALL = 1, LIMIT_ARRAY = 2, LIMIT_ROOT_EXIT = 3, LIMIT_INVOKE = 4,
            LIMIT_ARRAY_BEFORE = 5, LIMIT_ENDLESS = 6;

    @DontInline
    @Hidden
    private void limit(int kind, int id) {
        long b = bound;
        bound = Long.MAX_VALUE; /* no probe the agent's call runs asks again */
        bound = limit0(kind, id, b);
    }

    /* A block outside the work mode: the program's code is work in the
     * overhead bucket too (as in the step engine); nothing counts in HIDDEN
     * mode, where program code makes the run refused. */
    @DontInline
    @Hidden
    private void other(int id) {
        if (id >= lengths.length && !grow(id))
            return; /* an id the agent never handed out: it has reported the failure */
        if (program(id)) {
            if (mode == HIDDEN) {
                if (hidden == 0) {
                    hidden = id + 1;
                    for (int i = 0; i < sp; i++)
                        if ((rootModes[i] & MODE_MASK) == HIDDEN) {
                            hiddenRoot = (rootModes[i] & STEP_SEES) != 0 ? -(rootIds[i] + 1) : rootIds[i] + 1;
                            break;
                        }
                }
                return;
            }
            int v = lengths[id];
            hits[id]++;
            n += v & LEN;
            ctxCount[ctxCur] += v & LEN;
            segment((v >>> 15) & (LEN | SEG_ALLOC), WORK);
            if (pos > bound)
                limit(LIMIT_BLOCK, id);
            if (v < 0) /* ENDLESS */
                limit(LIMIT_ENDLESS, id);
        } else if (mode == OVERHEAD) {
            int v = lengths[id];
            ohits[id]++;
            on += v & LEN;
            ctxCount[ctxCur + 1] += v & LEN;
            segment((v >>> 15) & (LEN | SEG_ALLOC), OVERHEAD);
            if (pos > bound)
                limit(LIMIT_BLOCK, id);
            if (v < 0) /* ENDLESS */
                limit(LIMIT_ENDLESS, id);
        }
    }

    /* Whether block id is in a class of the program's. */
    @DontInline
    @Hidden
    private static boolean program(int id) {
        int[] f = flags;
        if (id >= f.length) {
            f = flags = flags0(id);
            if (id >= f.length)
                return false; /* an id the agent never handed out: it has reported the failure */
        }
        return (f[id] & 1) != 0;
    }

    /* Make hits and lengths cover id; false when the agent knows no such id. */
    @DontInline
    @Hidden
    private boolean grow(int id) {
        if (id >= lengths.length)
            lengths = lengths0(id);
        if (id >= lengths.length)
            return false;
        long[] h = hits;
        if (id >= h.length) {
            int cap = h.length * 2;
            if (cap <= id)
                cap = lengths.length;
            long[] g = new long[cap], o = new long[cap];
            for (int i = 0; i < h.length; i++) {
                g[i] = h[i];
                o[i] = ohits[i];
            }
            hits = g;
            ohits = o;
        }
        return true;
    }

    /*
     * Array probes, right after each newarray, anewarray and multianewarray,
     * which therefore allocated: the new array, the levels the instruction
     * made (1, or multianewarray's dimensions; bipush sign-extends them) and
     * the instruction's first site. As the step engine charges what the
     * JVM allocates: each level's arrays, all as long as the first one of
     * the level; a level of length 0 ends the levels below it.
     */

    /** After an array instruction: the array probe, named SourceFile, as the call probe. */
    @Hidden
    public static void SourceFile(Object a, int dims, int site) {
        Probe p = current();
        if (p != null)
            p.arrays(a, dims & 0xff, site);
    }

    @Hidden
    private void arrays(Object a, int dims, int site) {
        if (mode == HIDDEN)
            return;
        arraySegment(site);
        if (pos > bound) /* a stop the agent waits for the next probe for: before this instruction's arrays */
            limit(LIMIT_ARRAY_BEFORE, site);
        countArrays(a, dims, site);
        if (pos > bound) /* after the arrays: the instruction ran, the segment after it may hold the limit */
            limit(LIMIT_ARRAY, site);
    }

    @Hidden
    private void countArrays(Object a, int dims, int site) {
        long[] al = allocations, el = elements;
        if (al == null || site < 0 || site > al.length - dims) {
            if (!growSites(site, dims))
                return; /* a site the agent never handed out: it has reported the failure */
            al = allocations;
            el = elements;
        }
        if (mode == OVERHEAD) {
            al = oallocations;
            el = oelements;
        }
        long count = 1;
        for (int level = 0; level < dims; level++) {
            int n = length(a);
            al[site + level] += count;
            el[site + level] += count * n;
            if (n == 0 || level == dims - 1)
                return;
            count *= n;
            a = ((Object[]) a)[0];
        }
    }

    /* Make the site counters cover site .. site + dims - 1; false when the agent knows no such site. */
    @DontInline
    @Hidden
    private boolean growSites(int site, int dims) {
        int known = arraySites0(site, dims);
        if (site < 0 || site > known - dims)
            return false;
        long[] al = allocations, el = elements, oal = oallocations, oel = oelements;
        Class<?>[] cl = classes;
        int cap = al == null || al.length * 2 < known ? known : al.length * 2; /* not Math.max: instrumented */
        long[] ga = new long[cap], ge = new long[cap], goa = new long[cap], goe = new long[cap];
        Class<?>[] gc = new Class<?>[cap];
        if (al != null)
            for (int i = 0; i < al.length; i++) {
                ga[i] = al[i];
                ge[i] = el[i];
                goa[i] = oal[i];
                goe[i] = oel[i];
                gc[i] = cl[i];
            }
        allocations = ga;
        elements = ge;
        oallocations = goa;
        oelements = goe;
        classes = gc;
        return true;
    }

    /* The length of any array, without reflection (java.lang.reflect is instrumented). */
    @Hidden
    private static int length(Object a) {
        if (a instanceof Object[])
            return ((Object[]) a).length;
        if (a instanceof int[])
            return ((int[]) a).length;
        if (a instanceof byte[])
            return ((byte[]) a).length;
        if (a instanceof char[])
            return ((char[]) a).length;
        if (a instanceof long[])
            return ((long[]) a).length;
        if (a instanceof double[])
            return ((double[]) a).length;
        if (a instanceof float[])
            return ((float[]) a).length;
        if (a instanceof short[])
            return ((short[]) a).length;
        return ((boolean[]) a).length;
    }

    /*
     * Copy probes, around each invokestatic System.arraycopy: the length
     * before, and the call returned after, as the step engine charges a
     * copy's length to the call when it returns without an exception.
     * Probes, not the agent's binding of the native: compiled code copies
     * with the JIT's intrinsic, without calling the native.
     */

    /** Before System.arraycopy: its length (on a bystander, charged to the bystanders' allowance). */
    @Hidden
    public static void copy(int length) {
        Probe p = current();
        if (p != null)
            p.copying = length;
        else if (watching && length > 0 && counting.length != 0)
            bystanderCopy(length);
    }

    /*
     * A copy of length elements on a thread that is not counting while
     * another thread counts: the step engine charges the elements that its
     * stepped bystanders copy to their allowance, and so does the agent
     * here (before the copy: never less than the step engine charges).
     */
    @DontInline
    @Hidden
    private static void bystanderCopy(int length) {
        bystander0(length, false);
    }

    /** After System.arraycopy returned: its length was copied (in the bucket of the mode, none when HIDDEN). */
    @Hidden
    public static void copy() {
        Probe p = current();
        if (p != null && p.copying > 0) {
            if (p.mode == WORK)
                p.copied += p.copying;
            else if (p.mode == OVERHEAD)
                p.ocopied += p.copying;
            p.copying = 0;
        }
    }

    /** copy(int) in the program's classes. */
    @Hidden
    public static void programCopy(int length) {
        copy(length);
    }

    /** copy() in the program's classes: the program's code is work in OVERHEAD mode too. */
    @Hidden
    public static void programCopy() {
        Probe p = current();
        if (p != null && p.copying > 0) {
            if (p.mode != HIDDEN)
                p.copied += p.copying;
            p.copying = 0;
        }
    }

    /**
     * After an array's clone() or Array.newArray returned: the new array,
     * the call's site. Its key is its runtime class's (a clone of an
     * Object[] may be a String[]): counted here, in the bucket of the mode,
     * when it is the class first seen at the site (the agent reads that
     * class with the counts), else by the agent at once.
     */
    @Hidden
    public static void made(Object a, int site) {
        Probe p = current();
        if (p != null && p.mode != HIDDEN)
            p.madeArray(a, site);
    }

    /**
     * After Array.multiNewArray returned: the new array (levels: 1, walk
     * them) and the call's site. The agent walks the levels (made0).
     */
    @Hidden
    public static void made(Object a, int levels, int site) {
        Probe p = current();
        if (p != null && p.mode != HIDDEN)
            made0(a, site);
    }

    @Hidden
    private void madeArray(Object a, int site) {
        long[] al = allocations;
        if (al == null || site < 0 || site >= al.length) {
            if (!growSites(site, 1))
                return; /* a site the agent never handed out: it has reported the failure */
        }
        Class<?>[] cl = classes;
        Class<?> c = a.getClass(); /* a native intrinsic without bytecode */
        if (cl[site] == null)
            cl[site] = c;
        if (cl[site] != c) {
            made0(a, site);
            return;
        }
        if (mode == OVERHEAD) {
            oallocations[site]++;
            oelements[site] += length(a);
        } else {
            allocations[site]++;
            elements[site] += length(a);
        }
    }

    /**
     * The agent charges an array of another class than the site's, or the
     * levels of a multiNewArray, to their keys and to the call's elements.
     */
    @Hidden
    private static native void made0(Object a, int site);

    /**
     * The agent charges the arrays a native allocated (nativeArrays) to
     * their keys and to the call at site when the call was native (nat),
     * and drops them otherwise.
     */
    @Hidden
    private static native void nativeArrays0(int site, boolean nat);

    /** The call sites handed out so far (site: the one asked for, reported if unknown). */
    @Hidden
    private static native int callSites0(int site);

    /** 2 when the key of the invoke at call site `site` has no fence (a Math interpreter intrinsic), else 1. */
    @Hidden
    private static native int callKind0(int site);

    /** The segments after every call site handed out so far (site: the one asked for, reported if unknown). */
    @Hidden
    private static native int[] callSegs0(int site);

    /** The segments after every array site handed out so far (site: the one asked for, reported if unknown). */
    @Hidden
    private static native int[] arraySegs0(int site);

    /**
     * The agent: the JVM entered a method (block 0: id) on this thread; the
     * segment it interrupted stops there. below: the depth of the frame the
     * JVM entered it from, counted from this native (0).
     */
    @Hidden
    private static native void jvmEntered0(int id, int below);

    /** The array sites handed out so far (site and dims: the ones asked for, reported if unknown). */
    @Hidden
    private static native int arraySites0(int site, int dims);

    /** The agent's block lengths, all ids handed out so far (id is the one asked for: reported if unknown). */
    @Hidden
    private static native int[] lengths0(int id);

    /** The agent's branch sites, all ids handed out so far (id is the one asked for: reported if unknown). */
    @Hidden
    private static native int[] sites0(int id);

    /** The agent's program flags, all ids handed out so far (id is the one asked for: reported if unknown). */
    @Hidden
    private static native int[] flags0(int id);

    /** The agent: the mode of the root frame (block 0: id) being entered on this thread, whose mode now is `mode`. */
    @Hidden
    private static native int root0(int id, int mode);

    /** The agent opens an extent on this thread if the caller is the measured method (and sets depth to 1). */
    @Hidden
    private static native void begin0();

    /** The agent closes this thread's extent: its outermost frame is returning. */
    @Hidden
    private static native void end0();

    /**
     * The agent: a frame of the method whose block 0 is id, the thread's
     * frames-th counted one, would take the modelled stack use to `use`
     * words, past the budget: it stops the run (returns only when the run
     * ends otherwise).
     */
    @Hidden
    private static native void deep0(int id, int frames, int use);

    /** The thread's position passed its bound (the bytecode limit), kind and id as limit's: the bound to keep. */
    @Hidden
    private static native long limit0(int kind, int id, long bound);

    /** A bystander's block of n bytecodes (of the program's: program) began. */
    @Hidden
    private static native void bystander0(int n, boolean program);
}
