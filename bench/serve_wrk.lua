-- bench/serve_wrk.lua: wrk script for bench/serve_bench.sh. POSTs the pastes of a
-- NUL-separated file (wrk ... -s serve_wrk.lua URL -- PASTES [PATH]) in turn, as
-- text/plain to PATH (default /v1/explain); counts answers by status.
local bodies = {}
local path = "/v1/explain"
local i = 0

function init(args)
  local f = assert(io.open(args[1], "rb"))
  local all = f:read("*a")
  f:close()
  for body in all:gmatch("([^%z]+)%z") do bodies[#bodies + 1] = body end
  if args[2] then path = args[2] end
  i = math.random(#bodies)
end

function request()
  i = i % #bodies + 1
  return wrk.format("POST", path, { ["Content-Type"] = "text/plain" }, bodies[i])
end
