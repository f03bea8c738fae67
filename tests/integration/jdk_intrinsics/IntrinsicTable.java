import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import jdk.vm.ci.hotspot.HotSpotJVMCIRuntime;
import jdk.vm.ci.hotspot.VMIntrinsicMethod;

/*
 * Prints HotSpot's intrinsics as the running JVM knows them (JVMCI's table),
 * one per line: id, class, method name, descriptor, and what the method is
 * in this JDK: bytecode, native, abstract or missing (a marker, or a
 * signature-polymorphic method). For tests/integration/jdk_intrinsics.sh.
 * Run with -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI
 * --add-modules=jdk.internal.vm.ci and the exports of jdk.vm.ci.hotspot and
 * jdk.vm.ci.runtime.
 */
public final class IntrinsicTable {
    private IntrinsicTable() { }

    static String type(Class<?> c) {
        if (c.isArray())
            return c.getName().replace('.', '/');
        if (!c.isPrimitive())
            return "L" + c.getName().replace('.', '/') + ";";
        if (c == void.class) return "V";
        if (c == boolean.class) return "Z";
        if (c == byte.class) return "B";
        if (c == char.class) return "C";
        if (c == short.class) return "S";
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == float.class) return "F";
        return "D";
    }

    static String descriptor(Executable e) {
        StringBuilder b = new StringBuilder("(");
        for (Class<?> p : e.getParameterTypes())
            b.append(type(p));
        b.append(')');
        return b.append(e instanceof Method ? type(((Method) e).getReturnType()) : "V").toString();
    }

    static String kind(String cls, String name, String desc) {
        Class<?> c;
        try {
            c = Class.forName(cls.replace('/', '.'), false, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "missing";
        }
        Executable[] all = name.equals("<init>") ? c.getDeclaredConstructors() : c.getDeclaredMethods();
        for (Executable e : all) {
            if ((name.equals("<init>") || e.getName().equals(name)) && descriptor(e).equals(desc)) {
                int m = e.getModifiers();
                return Modifier.isNative(m) ? "native" : Modifier.isAbstract(m) ? "abstract" : "bytecode";
            }
        }
        return "missing";
    }

    public static void main(String[] args) {
        for (VMIntrinsicMethod m : HotSpotJVMCIRuntime.runtime().getConfigStore().getIntrinsics())
            System.out.println(m.id + "\t" + m.declaringClass + "\t" + m.name + "\t" + m.descriptor + "\t"
                    + kind(m.declaringClass, m.name, m.descriptor));
    }
}
