// The tool browser snapshot's clock (an anywidget ES module with no view of its own).
//
// The kernel cannot wait without a thread, so the page keeps time for it: each time the kernel
// bumps `pending`, the clock (re)starts a `quiet_ms` timer, and when the browser has been quiet
// that long it sends {settled: pending} back. The kernel then refreshes the browser's saved
// snapshot once, however many keys were typed meanwhile.

export default {
  initialize({ model }) {
    let timer = null;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        model.send({ settled: model.get("pending") });
      }, model.get("quiet_ms"));
    };
    model.on("change:pending", restart);
    return () => {
      clearTimeout(timer);
      model.off("change:pending", restart);
    };
  },
};
