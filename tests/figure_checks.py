"""What the figure tests measure: texts outside the figure or overlapping, legends, labels."""

from __future__ import annotations

from matplotlib.text import Text


def legend_texts(figure):
    return [t.get_text() for legend in figure.legends for t in legend.get_texts()]


def labels(ax):
    """The axes' texts with text (a label's leader line is a text-less annotation)."""
    return [t for t in ax.texts if t.get_text()]


def texts_outside_or_overlapping(figure, path):
    """After a plain ``savefig``: the texts not wholly inside the figure, and the pairs of texts that overlap."""
    figure.savefig(path)
    renderer = figure.canvas.get_renderer()
    texts = [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]
    drawn = []
    for ax in (ax for ax in figure.axes if ax.axison):  # tick labels outside the view limits are not drawn
        drawn += [label for tick in ax.xaxis._update_ticks() + ax.yaxis._update_ticks()
                  for label in (tick.label1, tick.label2) if label.get_visible()]
    ticks = {id(label) for ax in figure.axes for axis in (ax.xaxis, ax.yaxis)
             for label in axis.get_ticklabels(which="both") + [t.label2 for t in axis.get_major_ticks()]}
    texts = [t for t in texts if id(t) not in ticks] + [t for t in drawn if t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    frame = figure.bbox
    outside = [text for text, box in boxes
               if box.x0 < frame.x0 or box.y0 < frame.y0 or box.x1 > frame.x1 or box.y1 > frame.y1]
    pairs = [(a, b) for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1:] if box.overlaps(other)]
    return outside, pairs, len(boxes)
