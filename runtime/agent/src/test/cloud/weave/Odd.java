package weave;

import dev.cumulus.Cloud;
import java.util.function.IntSupplier;

/** Reads of odd shapes (returns in finally, loops, monitors, string switch, many locals, recursion). */
public class Odd implements Cloud.Node {
    private int base = 1;
    private Odd thing;
    private int zero;

    public long finallyReturn(long a, IntSupplier p) {
        try {
            a += p.getAsInt();
            if (a > 100) {
                return a;
            }
        } finally {
            if (a < 0) {
                return -a;
            }
        }
        return a * 2;
    }

    public double loop(double d, IntSupplier p) {
        for (int i = 0; i < 10; i++) {
            try {
                if (p.getAsInt() == i) {
                    return d * i;
                }
            } catch (IllegalArgumentException e) {
                if (i == 5) {
                    return -1;
                }
            }
        }
        return d;
    }

    public synchronized long syncMethod(long x, IntSupplier p) {
        if (x > 0) {
            return x + p.getAsInt();
        }
        throw new IllegalStateException("neg");
    }

    public int syncBlock(int x, IntSupplier p) {
        synchronized (this) {
            if (x > 0) {
                return p.getAsInt();
            }
        }
        synchronized (thing == null ? this : thing) {
            return x + p.getAsInt() + base;
        }
    }

    public int stringSwitch(String s, IntSupplier p) {
        switch (s) {
            case "a":
                return 1;
            case "b":
                return p.getAsInt();
            default:
                return -1;
        }
    }

    public int swallowAll(int x, IntSupplier p) {
        try {
            return p.getAsInt();
        } catch (Throwable t) {
            return x;
        }
    }

    public int recurse(int n, IntSupplier p) {
        return n <= 0 ? p.getAsInt() : recurse(n - 1, p) + 1;
    }

    public double manyLocals(double a, IntSupplier p) {
        double v0 = a;
        double v1 = v0 + 1;
        double v2 = v1 + 2;
        double v3 = v2 + 3;
        double v4 = v3 + 4;
        double v5 = v4 + 5;
        double v6 = v5 + 6;
        double v7 = v6 + 7;
        double v8 = v7 + 8;
        double v9 = v8 + 9;
        double v10 = v9 + 10;
        double v11 = v10 + 11;
        double v12 = v11 + 12;
        double v13 = v12 + 13;
        double v14 = v13 + 14;
        double v15 = v14 + 15;
        double v16 = v15 + 16;
        double v17 = v16 + 17;
        double v18 = v17 + 18;
        double v19 = v18 + 19;
        double v20 = v19 + 20;
        double v21 = v20 + 21;
        double v22 = v21 + 22;
        double v23 = v22 + 23;
        double v24 = v23 + 24;
        double v25 = v24 + 25;
        double v26 = v25 + 26;
        double v27 = v26 + 27;
        double v28 = v27 + 28;
        double v29 = v28 + 29;
        double v30 = v29 + 30;
        double v31 = v30 + 31;
        double v32 = v31 + 32;
        double v33 = v32 + 33;
        double v34 = v33 + 34;
        double v35 = v34 + 35;
        double v36 = v35 + 36;
        double v37 = v36 + 37;
        double v38 = v37 + 38;
        double v39 = v38 + 39;
        double v40 = v39 + 40;
        double v41 = v40 + 41;
        double v42 = v41 + 42;
        double v43 = v42 + 43;
        double v44 = v43 + 44;
        double v45 = v44 + 45;
        double v46 = v45 + 46;
        double v47 = v46 + 47;
        double v48 = v47 + 48;
        double v49 = v48 + 49;
        double v50 = v49 + 50;
        double v51 = v50 + 51;
        double v52 = v51 + 52;
        double v53 = v52 + 53;
        double v54 = v53 + 54;
        double v55 = v54 + 55;
        double v56 = v55 + 56;
        double v57 = v56 + 57;
        double v58 = v57 + 58;
        double v59 = v58 + 59;
        double v60 = v59 + 60;
        double v61 = v60 + 61;
        double v62 = v61 + 62;
        double v63 = v62 + 63;
        double v64 = v63 + 64;
        double v65 = v64 + 65;
        double v66 = v65 + 66;
        double v67 = v66 + 67;
        double v68 = v67 + 68;
        double v69 = v68 + 69;
        double v70 = v69 + 70;
        double v71 = v70 + 71;
        double v72 = v71 + 72;
        double v73 = v72 + 73;
        double v74 = v73 + 74;
        double v75 = v74 + 75;
        double v76 = v75 + 76;
        double v77 = v76 + 77;
        double v78 = v77 + 78;
        double v79 = v78 + 79;
        double v80 = v79 + 80;
        double v81 = v80 + 81;
        double v82 = v81 + 82;
        double v83 = v82 + 83;
        double v84 = v83 + 84;
        double v85 = v84 + 85;
        double v86 = v85 + 86;
        double v87 = v86 + 87;
        double v88 = v87 + 88;
        double v89 = v88 + 89;
        double v90 = v89 + 90;
        double v91 = v90 + 91;
        double v92 = v91 + 92;
        double v93 = v92 + 93;
        double v94 = v93 + 94;
        double v95 = v94 + 95;
        double v96 = v95 + 96;
        double v97 = v96 + 97;
        double v98 = v97 + 98;
        double v99 = v98 + 99;
        double v100 = v99 + 100;
        double v101 = v100 + 101;
        double v102 = v101 + 102;
        double v103 = v102 + 103;
        double v104 = v103 + 104;
        double v105 = v104 + 105;
        double v106 = v105 + 106;
        double v107 = v106 + 107;
        double v108 = v107 + 108;
        double v109 = v108 + 109;
        double v110 = v109 + 110;
        double v111 = v110 + 111;
        double v112 = v111 + 112;
        double v113 = v112 + 113;
        double v114 = v113 + 114;
        double v115 = v114 + 115;
        double v116 = v115 + 116;
        double v117 = v116 + 117;
        double v118 = v117 + 118;
        double v119 = v118 + 119;
        double v120 = v119 + 120;
        double v121 = v120 + 121;
        double v122 = v121 + 122;
        double v123 = v122 + 123;
        double v124 = v123 + 124;
        double v125 = v124 + 125;
        double v126 = v125 + 126;
        double v127 = v126 + 127;
        double v128 = v127 + 128;
        double v129 = v128 + 129;
        double v130 = v129 + 130;
        double v131 = v130 + 131;
        double v132 = v131 + 132;
        double v133 = v132 + 133;
        double v134 = v133 + 134;
        double v135 = v134 + 135;
        double v136 = v135 + 136;
        double v137 = v136 + 137;
        double v138 = v137 + 138;
        double v139 = v138 + 139;
        double v140 = v139 + 140;
        try {
            return v140 + p.getAsInt();
        } finally {
            v0 = v139;
        }
    }

    public int throwsOnly() {
        return base / zero;
    }

    public int loopAtStart(int n, IntSupplier p) {
        do {
            n--;
            p.getAsInt();
        } while (n > 0);
        return n;
    }
}
