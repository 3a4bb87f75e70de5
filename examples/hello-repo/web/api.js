// A small Express-style handler: errdex's tree-sitter front end reads it.
const MAX_ITEMS = 100;

function parseLimit(raw) {
  const limit = Number(raw);
  if (Number.isNaN(limit)) {
    throw new TypeError(`limit must be a number, got ${raw}`);
  }
  if (limit > MAX_ITEMS) {
    throw new RangeError("limit must be at most " + MAX_ITEMS);
  }
  return limit;
}

function listItems(req, res) {
  if (!req.user) {
    return res.status(401).json({ error: "login required" });
  }
  console.warn("listing items for", req.user.name);
  return parseLimit(req.query.limit);
}

module.exports = { parseLimit, listItems };
