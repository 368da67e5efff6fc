package io.riptide.dolr.dissemination;

import io.riptide.core.runtime.NodeHandle;
import java.util.List;

/**
 * One node's place in one object's dissemination tree, for status pages, tests and experiments.
 *
 * @param parent   null at the root
 * @param path     the ancestors from the root down to this node's parent
 * @param stamp    the newest update this node holds
 */
public record TreeView(NodeHandle parent, List<NodeHandle> path, List<NodeHandle> children, long stamp, boolean root) {
}
