/** Building and walking binary trees of small objects. */
public class AllocObjects {
    static final class Node { Node l, r; int v; Node(Node l, Node r, int v) { this.l = l; this.r = r; this.v = v; } }
    static Node build(int d) { return d == 0 ? new Node(null, null, 1) : new Node(build(d - 1), build(d - 1), d); }
    static long sum(Node n) { return n == null ? 0 : n.v + sum(n.l) + sum(n.r); }
    public static long run() {
        long s = 0;
        for (int i = 0; i < 6; i++) s += sum(build(11));
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
