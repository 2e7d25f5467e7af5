package corpus.cum105;

import dev.cumulus.Cloud;
import java.util.ArrayList;
import java.util.List;

/** Conforming: nodes refer to other nodes of the cloud and to their own root. */
public class Tree implements Cloud.Root {
    private TreeNode root = new TreeNode(this);

    public void grow() { // classify: write
        root.children.add(new TreeNode(this));
    }

    public int width() { // classify: read
        return root.children.size();
    }
}

class TreeNode implements Cloud.Node {
    final Tree tree;
    final List<TreeNode> children = new ArrayList<>();

    TreeNode(Tree tree) {
        this.tree = tree;
    }
}
