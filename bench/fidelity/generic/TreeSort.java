/** Tree sort: every element inserted into an unbalanced binary search tree (equals to the right), read back in order recursively. */
public class TreeSort {
    static final class Node<T> {
        final T value;
        Node<T> left, right;

        Node(T value) {
            this.value = value;
        }
    }

    static <T extends Comparable<T>> T[] sort(T[] a) {
        Node<T> root = null;
        for (T x : a) root = insert(root, x);
        inOrder(root, a, 0);
        return a;
    }

    static <T extends Comparable<T>> Node<T> insert(Node<T> node, T x) {
        if (node == null) return new Node<>(x);
        if (x.compareTo(node.value) < 0) node.left = insert(node.left, x);
        else node.right = insert(node.right, x);
        return node;
    }

    /** Writes the subtree's values to a from index i on; returns the next index. */
    static <T> int inOrder(Node<T> node, T[] a, int i) {
        if (node == null) return i;
        i = inOrder(node.left, a, i);
        a[i++] = node.value;
        return inOrder(node.right, a, i);
    }

    public static long run() {
        return checksum(sort(data()));
    }

    /** The input every program of this corpus sorts: the sorting corpus' 2000 numbers in [0, 100000), boxed. */
    static Integer[] data() {
        Integer[] a = new Integer[2000];
        long s = 20261122;
        for (int i = 0; i < a.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) ((s >>> 33) % 100000);
        }
        return a;
    }

    /** Depends on every element and its position: equal for all correct sorts. */
    static long checksum(Integer[] a) {
        long h = a.length;
        for (int i = 0; i < a.length; i++) h = h * 31 + a[i];
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
