// mem0's npm client (mem0ai, as package-lock.json pins it), unchanged, against Helixsite's mem0 door.
// tests/mem0/test_node_client.py runs it with the door's URL and two tokens in the environment and
// asserts on what it prints: one JSON object, each call's answer (or the error it threw) by name.
import { MemoryClient } from "mem0ai";

const host = process.env.HELIX_MEM0_HOST;
const writer = new MemoryClient({ apiKey: process.env.HELIX_MEM0_TOKEN, host });
// A token of another workspace, once at the door and once naming the writer's workspace in the host.
const outsider = new MemoryClient({ apiKey: process.env.HELIX_MEM0_OUTSIDER_TOKEN, host });
const outsiderInTeam = new MemoryClient({ apiKey: process.env.HELIX_MEM0_OUTSIDER_TOKEN, host: `${host}/w/team` });
const stranger = new MemoryClient({ apiKey: "hxt_not-a-token", host });

const MOVE = [
  { role: "user", content: "I moved to Lisbon last spring." },
  { role: "assistant", content: "Lisbon is lovely. How is the new flat?" },
  { role: "user", content: "The flat is near the river and I cycle to work along it." },
];
const BEES = [
  { role: "user", content: "I keep two hives of bees on the roof." },
  { role: "assistant", content: "How much honey do they give you?" },
];

// The error the client threw, as a caller would tell one from another.
async function refusal(call) {
  try {
    await call();
    return null;
  } catch (error) {
    return { name: error.name, errorCode: error.errorCode, message: error.message };
  }
}

const answers = {};
answers.verbatim = await writer.add(MOVE, {
  userId: "alice",
  agentId: "coach",
  runId: "run-1",
  metadata: { topic: "home" },
  infer: false,
});
answers.inferred = await writer.add(BEES, { userId: "alice", metadata: { topic: "hobby" } });
answers.bob = await writer.add("Bob moved to Lisbon too.", { userId: "bob", runId: "run-2" });
answers.inTheRun = await writer.search("where does alice live", {
  filters: { AND: [{ user_id: "alice" }, { run_id: "run-1" }] },
});
answers.alicesOnly = await writer.search("who moved to Lisbon", { filters: { user_id: "alice" }, topK: 10 });
answers.hobbies = await writer.search("what does alice keep on the roof", {
  filters: { user_id: "alice", metadata: { topic: "hobby" } },
});
answers.alices = await writer.getAll({ filters: { user_id: "alice" } });
const first = answers.verbatim.results[0].id;
answers.refused = {
  get: await refusal(() => outsider.get(first)),
  delete: await refusal(() => outsider.delete(first)),
  searchInTeam: await refusal(() => outsiderInTeam.search("where does alice live", { filters: { user_id: "alice" } })),
  addInTeam: await refusal(() => outsiderInTeam.add("Alice moved to Porto.", { userId: "alice" })),
  unknownToken: await refusal(() => stranger.search("where does alice live", { filters: { user_id: "alice" } })),
};
answers.afterRefusals = await writer.get(first);
answers.bobDeleted = await writer.deleteUser({ entity_type: "user", entity_id: "bob" });
answers.bobsAfter = await writer.getAll({ filters: { user_id: "bob" } });
console.log(JSON.stringify(answers));
