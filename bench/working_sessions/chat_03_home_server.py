"""A working chat: a household's home server (Pi, Proxmox, backups, DNS, media), over weeks of sessions."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u

CHAT = Chat(
    name="ws-03-home-server",
    sessions=[
        Session(
            "2026-01-04T20:15:00Z",
            [
                u(
                    "Evening! I want to get our home server situation sorted this year and could use a "
                    "sparring partner. Right now it's one Raspberry Pi 4 (4 GB) sitting in the hall cupboard "
                    "next to the router. Pi-hole runs on the Pi 4 for the whole house, plus Home Assistant in "
                    "a Docker container and a Samba share that nobody uses. It's been fine but it's creaking, "
                    "and I'd like a proper box for a media server and backups.",
                    key="ku-pihole-1",
                ),
                a(
                    "Sounds like a classic setup that has outgrown its hardware. Before suggesting anything, "
                    "a few questions that change the answer:\n"
                    "\n"
                    "1. **What's in the house?** How many people and devices, and what do you want to stream "
                    "(4K or 1080p, on which TVs)?\n"
                    "2. **What storage do you have now**, and how much do you expect to keep (photos, films, "
                    "backups of laptops)?\n"
                    "3. **Budget and noise.** Is this sitting somewhere quiet where a fan would bother "
                    "anyone?\n"
                    "4. **How much tinkering do you want?** Some people enjoy maintaining a Proxmox cluster, "
                    "some want it to just work.\n"
                    "\n"
                    "A common path from where you are: keep the Pi for small always-on things (or as a backup "
                    "DNS), and add a used business mini PC running Proxmox for everything else. They're "
                    "cheap, sip power and are well supported."
                ),
                u(
                    "House: me (Eamon), my partner Sunniva, two kids, Ada who's 9 and Rufus who's 6. Maybe 30 "
                    "devices on the wifi if you count the kids' tablets and the smart plugs. Streaming 1080p "
                    "mostly, one 4K TV in the living room. Storage is a 2 TB USB disk on the Pi that's 80% "
                    "full of photos."
                ),
                a(
                    "That's a very manageable load. 1080p to a few devices at once is easy for any recent "
                    "Intel CPU with Quick Sync, as long as the media server can use hardware transcoding; the "
                    "4K TV will usually play the files directly without any transcoding at all.\n"
                    "\n"
                    "The photos are the part I'd worry about first: 1.6 TB of family photos on one USB disk "
                    "with no other copy is one dropped cable away from being gone. Whatever else we do, a "
                    "backup of that comes before the media server.\n"
                    "\n"
                    "How is the Pi reachable on your network? If you can tell me its IP and what the router "
                    "does for DHCP and DNS, I can sketch how the pieces fit together."
                ),
                u(
                    "Pi is at 192.168.1.2, static. The router is the ISP's box, it does DHCP and hands out "
                    "the Pi as DNS. Our ISP is Glasnet, and the box is locked down, I can change DHCP options "
                    "but not much else.",
                    key="mt-ip-1",
                ),
                a(
                    "That's workable. The pieces you need from the router are exactly the ones you have: "
                    "DHCP, and the DNS server it hands out. Everything else can live on your own hardware.\n"
                    "\n"
                    'Since the router tells every device "ask the Pi for DNS", the Pi is a single point of '
                    "failure for the whole house's internet right now: if it hangs, nothing resolves and it "
                    "looks like the internet is down. Worth fixing in the new setup by handing out two DNS "
                    "servers, both yours, so one can be rebooted without anyone noticing.\n"
                    "\n"
                    "Do you know your upload speed? It matters later if you ever want to reach anything from "
                    "outside the house."
                ),
                u("Upload is 20 Mbit/s, download 150. Copper, they keep promising fibre.", key="ku-upload-1"),
                a(
                    "Fine for what you've described. Upload only matters for access from outside, and for "
                    "pushing backups off-site: 20 Mbit/s is roughly 9 GB an hour at best, so the first "
                    "off-site copy of 1.6 TB of photos would take a week or so of continuous uploading. After "
                    "that, only new photos go up, which is nothing."
                ),
                u(
                    "Whatever we buy has to be quiet: it lives in the hall cupboard right next to Rufus's "
                    "bedroom, so no loud fans.",
                    key="pref-quiet",
                ),
                a(
                    "Then I'd look at the 1-litre business mini PCs: Lenovo ThinkCentre Tiny (M720q, M920q), "
                    "Dell OptiPlex Micro, HP EliteDesk Mini. Used ones with an 8th or 9th gen Intel CPU go "
                    "for €120 to €200. At idle the fan barely turns, and their CPUs have Quick Sync for "
                    "transcoding.\n"
                    "\n"
                    "Things to check on a listing:\n"
                    "\n"
                    '- **CPU:** i5-8500T or similar. The "T" models run cooler.\n'
                    "- **RAM:** 16 GB is plenty to start; they take two SO-DIMMs, up to 32 or 64 GB.\n"
                    '- **Storage:** one NVMe slot plus one 2.5" bay on most. Enough for the OS and VMs; bulk '
                    "storage stays on USB or a NAS.\n"
                    "- **Power supply included**, they're a proprietary plug.\n"
                    "\n"
                    "Avoid the full-size towers and old rack servers people sell cheap: both louder and "
                    "hungrier."
                ),
                u("Found an M720q with i5-8500T, 16 GB, 256 GB NVMe for 150 on DoneDeal. Good?"),
                a(
                    "That's a fair price for that spec. Check before paying:\n"
                    "\n"
                    "- that it powers on and gets to the BIOS (ask the seller to show you),\n"
                    "- the BIOS isn't locked with a password (common on ex-corporate machines),\n"
                    "- the power brick is the original Lenovo 65 W one.\n"
                    "\n"
                    'Then plan for one extra part: a second SSD (2.5" SATA) for VM storage, so the NVMe '
                    "holds Proxmox and you can wipe one without the other. A 1 TB SATA SSD is around €60."
                ),
                u("Bought it! Picking it up Tuesday. Also got the SSD. What do I do first when it arrives?"),
                a(
                    "In order:\n"
                    "\n"
                    "1. **BIOS update** from Lenovo's support site while it still has Windows, or via a USB "
                    "stick. Old BIOS versions on these have known issues with some NVMe drives.\n"
                    '2. **BIOS settings:** enable virtualization (VT-x and VT-d), set "After power loss" to '
                    "*Power On* so it comes back after a power cut, disable the Intel AMT/ME remote "
                    "management unless you plan to use it.\n"
                    "3. **Memtest** for an hour or two. Used RAM fails more often than anything else in "
                    "these.\n"
                    "4. **Install Proxmox VE** from a USB stick onto the NVMe.\n"
                    "\n"
                    "We can go through the Proxmox install together next time; that's when the interesting "
                    "decisions come (storage layout, network)."
                ),
                u("Great. Kids are finally asleep so I'm going to enjoy the quiet. Thanks!"),
                a("Enjoy it. Good luck with the pickup on Tuesday."),
            ],
        ),
        Session(
            "2026-01-11T10:30:00Z",
            [
                u(
                    "Proxmox 8 is installed on the M720q. I called it pve1, static IP 192.168.1.10, web UI "
                    "works. Memtest ran 3 hours clean. Now what?",
                    key="mt-ip-2",
                ),
                a(
                    "Nice. The first-hour checklist on a fresh Proxmox install:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "sed -i 's/^deb/#deb/' /etc/apt/sources.list.d/pve-enterprise.list\n"
                    'echo "deb http://download.proxmox.com/debian/pve bookworm pve-no-subscription" > '
                    "/etc/apt/sources.list.d/pve-no-subscription.list\n"
                    "sed -i 's/^deb/#deb/' /etc/apt/sources.list.d/ceph.list\n"
                    "apt update\n"
                    "apt full-upgrade -y\n"
                    "```\n"
                    "\n"
                    "That swaps the enterprise repository (which needs a paid subscription and gives errors "
                    "on `apt update` without one) for the free one, and updates everything. Then reboot once "
                    "so the new kernel is in use.\n"
                    "\n"
                    "After that: add the SATA SSD as storage for VMs and containers, and set up a non-root "
                    "user for the web UI if you don't want to log in as root every time."
                ),
                u(
                    "Small rule for your answers: always start a command block with a comment naming the "
                    "machine it runs on, like `# on pve1` or `# on the Pi`. I've run things on the wrong box "
                    "twice already.",
                    key="si-machine",
                ),
                a(
                    "Good rule, I'll stick to it. Adding the SSD as LVM-thin storage, which is what Proxmox "
                    "uses by default for VM disks:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "lsblk -o NAME,SIZE,MODEL,SERIAL\n"
                    "```\n"
                    "\n"
                    "Find the SATA SSD in that list (probably `sda`, 1 TB). Then, making very sure it's the "
                    "right disk, because this wipes it:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "wipefs --all /dev/sda\n"
                    "pvcreate /dev/sda\n"
                    "vgcreate vmdata /dev/sda\n"
                    "lvcreate --type thin-pool -l 95%FREE -n data vmdata\n"
                    "pvesm add lvmthin vmdata --vgname vmdata --thinpool data --content images,rootdir\n"
                    "```\n"
                    "\n"
                    "Leaving 5% of the volume group unallocated gives room for the thin pool's metadata to "
                    "grow; running out of metadata space is the one way to break LVM-thin badly."
                ),
                u(
                    "Done, shows up as vmdata in the UI. How much power does this thing actually use? "
                    "Electricity is 38 cent a kWh here, it's brutal.",
                    key="ku-price-1",
                ),
                a(
                    "The M720q with an i5-8500T idles at roughly 8 to 12 W with an SSD or two, and peaks "
                    "around 40 W when transcoding. For a server that mostly idles, assume 12 W on average. "
                    "That's about 105 kWh a year, which at your price is a bit under €40 a year. The Pi 4 "
                    "with its USB disk is around 5 to 6 W, so together you're looking at well under €60 a "
                    "year.\n"
                    "\n"
                    "A cheap smart plug with power metering (you mentioned you have smart plugs) will tell "
                    "you the real figure after a week. Worth doing, because a misbehaving VM that keeps the "
                    "CPU busy can double it."
                ),
                u(
                    "And when we talk power, give me kWh per month and euros per month. Watts mean nothing to "
                    "Sunniva and she pays half the bill.",
                    key="si-kwh",
                ),
                a(
                    "Fair, that's how the bill reads. Redoing it that way: the M720q at 12 W average is about "
                    "8.8 kWh a month, about €3.30 a month. The Pi with its disk at 6 W is about 4.4 kWh, "
                    "about €1.70 a month. Together roughly €5 a month."
                ),
                u(
                    "OK that's much less than I feared. Next question: VMs or containers? I read that LXC is "
                    "lighter, but half the tutorials use VMs."
                ),
                a(
                    "Rule of thumb for a home setup:\n"
                    "\n"
                    "- **LXC containers** for Linux services that don't need their own kernel: Pi-hole, a "
                    "reverse proxy, Nextcloud, small databases. They share the host kernel, start in a second "
                    "and use almost no RAM on top of the service.\n"
                    "- **VMs** for anything that needs its own kernel or special hardware access, or that you "
                    "want fully isolated: Home Assistant OS (it's a whole appliance), Windows, anything "
                    "running Docker if you want to be conservative.\n"
                    "\n"
                    "Docker inside an unprivileged LXC works and lots of people do it, but it has rough edges "
                    "(nesting, storage drivers, AppArmor). A single small Debian VM running Docker for all "
                    "the container-based apps is a clean compromise."
                ),
                u(
                    "Makes sense. Plan: Pi-hole to LXC, one Docker VM for Jellyfin and friends, Home "
                    "Assistant OS as its own VM later. Pi stays as backup DNS."
                ),
                a(
                    "That's a solid plan. Order I'd suggest: Pi-hole first (small, and it tests your "
                    "networking), then the Docker VM and Jellyfin, then backups before anything else gets "
                    "precious, then Home Assistant, which is the one the family notices most if it breaks, so "
                    "it goes last when you're confident with the setup.\n"
                    "\n"
                    "To create the Debian template for containers:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "pveam update\n"
                    "pveam available --section system | grep debian-12\n"
                    "pveam download local debian-12-standard_12.7-1_amd64.tar.zst\n"
                    "```"
                ),
                u('Template downloaded. The kids want to know if the "new computer" can play Roblox. I said no.'),
                a(
                    "Correct answer. Although if they ever want a game server of their own, that's something "
                    "it can actually do."
                ),
                u("Don't give them ideas 😂 ok, next weekend, Pi-hole."),
                a(
                    "Sounds good. Have the Pi-hole admin password and your current blocklists handy; we can "
                    "export the settings from the Pi and import them into the new one."
                ),
            ],
        ),
        Session(
            "2026-01-18T14:00:00Z",
            [
                u(
                    "Pi-hole weekend! I exported the settings from the old one with Teleporter, have the zip. "
                    "Ready when you are."
                ),
                a(
                    "Let's create the container. A Debian 12 container with 1 core, 512 MB RAM and 4 GB disk "
                    "is plenty for Pi-hole:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "pct create 105 local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst \\\n"
                    "  --hostname pihole \\\n"
                    "  --cores 1 --memory 512 --swap 256 \\\n"
                    "  --rootfs vmdata:4 \\\n"
                    "  --net0 name=eth0,bridge=vmbr0,ip=192.168.1.3/24,gw=192.168.1.254 \\\n"
                    "  --nameserver 192.168.1.3 \\\n"
                    "  --unprivileged 1 \\\n"
                    "  --onboot 1 \\\n"
                    "  --features nesting=1\n"
                    "pct start 105\n"
                    "pct enter 105\n"
                    "```\n"
                    "\n"
                    "Then inside the container:\n"
                    "\n"
                    "```bash\n"
                    "# on the pihole container (CT 105)\n"
                    "apt update\n"
                    "apt install -y curl\n"
                    "curl -sSL https://install.pi-hole.net | bash\n"
                    "```\n"
                    "\n"
                    "`--onboot 1` starts it automatically when pve1 boots, which you definitely want for DNS. "
                    "Adjust the gateway if your router isn't at `.254`."
                ),
                u(
                    "```\n"
                    "root@pihole:~# curl -sSL https://install.pi-hole.net | bash\n"
                    "curl: (6) Could not resolve host: install.pi-hole.net\n"
                    "```"
                ),
                a(
                    "My mistake: I set the container's nameserver to its own address, and there's no DNS "
                    "server running there yet, so it can't resolve anything, including the installer. Point "
                    "it at a public resolver for the install:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "pct set 105 --nameserver 1.1.1.1\n"
                    "pct reboot 105\n"
                    "```\n"
                    "\n"
                    "Once Pi-hole is running you can leave it like that; the container itself doesn't need to "
                    "use Pi-hole for its own lookups, and it avoids a chicken-and-egg problem at boot."
                ),
                u("Installed. Which upstream should I use? The Pi forwards to Google, which I'd rather not."),
                a(
                    "Quad9 is a good default if you'd rather not use Google: no logging of IP addresses, "
                    "based in Switzerland, and it blocks known malware domains on top of what Pi-hole blocks. "
                    "Pi-hole 6 keeps its settings in a TOML file; the relevant part:\n"
                    "\n"
                    "```toml\n"
                    "# on the pihole container (CT 105): /etc/pihole/pihole.toml\n"
                    "[dns]\n"
                    "  upstreams = [\n"
                    '    "9.9.9.9",\n'
                    '    "149.112.112.112",\n'
                    "  ]\n"
                    "  domainNeeded = true\n"
                    "  expandHosts = true\n"
                    '  domain = "home.arpa"\n'
                    '  listeningMode = "LOCAL"\n'
                    "\n"
                    "[dhcp]\n"
                    "  active = false\n"
                    "```\n"
                    "\n"
                    "Then restart the service:\n"
                    "\n"
                    "```bash\n"
                    "# on the pihole container (CT 105)\n"
                    "systemctl restart pihole-FTL\n"
                    "pihole status\n"
                    "```\n"
                    "\n"
                    "`home.arpa` is the officially reserved domain for home networks, so `pve1.home.arpa` and "
                    "friends can never clash with a real domain. DHCP stays off, since your router does that.",
                    key="code-dns",
                ),
                u(
                    "Done and I imported the Teleporter backup. So now Pi-hole runs in an LXC on pve1 (CT "
                    "105), and the router hands it out as the first DNS server, with the old Pi-hole on the "
                    "Pi as second.",
                    key="ku-pihole-2",
                ),
                a(
                    "That's the setup that survives reboots: either one can be down and the house keeps "
                    "resolving. The catch is that the two Pi-holes now drift apart: a domain you allow on one "
                    "is still blocked on the other, and devices ask either of them, so the kids get "
                    "inconsistent results.\n"
                    "\n"
                    "The usual fix is a small sync tool that copies the primary's settings to the secondary "
                    "every hour or so. Nebula-sync works with Pi-hole 6 and runs as a container."
                ),
                u(
                    "Also: keep all the Docker stuff in compose files. Never give me bare docker run "
                    "commands, I lose track of them.",
                    key="si-compose",
                ),
                a(
                    "Noted. For the sync, on the Pi, which already has Docker:\n"
                    "\n"
                    "```yaml\n"
                    "# on the Pi: ~/stacks/nebula-sync/compose.yaml\n"
                    "services:\n"
                    "  nebula-sync:\n"
                    "    image: ghcr.io/lovelaze/nebula-sync:latest\n"
                    "    container_name: nebula-sync\n"
                    "    restart: unless-stopped\n"
                    "    environment:\n"
                    '      PRIMARY: "http://pihole.home.arpa|${PRIMARY_PASSWORD}"\n'
                    '      REPLICAS: "http://localhost|${REPLICA_PASSWORD}"\n'
                    '      FULL_SYNC: "true"\n'
                    '      CRON: "0 * * * *"\n'
                    "      TZ: Europe/Dublin\n"
                    "    network_mode: host\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on the Pi\n"
                    "cd ~/stacks/nebula-sync\n"
                    "printf 'PRIMARY_PASSWORD=%s\\nREPLICA_PASSWORD=%s\\n' 'primary-app-password' "
                    "'replica-app-password' > .env\n"
                    "chmod 600 .env\n"
                    "docker compose up -d\n"
                    "docker compose logs -f\n"
                    "```\n"
                    "\n"
                    "Use Pi-hole's app passwords (Settings → Web interface / API) rather than the admin "
                    "passwords. The `.env` file keeps them out of the compose file so it can go in git "
                    "without leaking anything."
                ),
                u(
                    "General thing while we're at it: I'd rather not expose anything to the internet "
                    "directly. Port forwards make me nervous with the kids' stuff on the same network.",
                    key="pref-noexpose",
                ),
                a(
                    "Very reasonable, and it also keeps things simple: nothing we've set up so far needs a "
                    "port forward. Pi-hole and the Proxmox web UI should only ever be reachable from inside "
                    "the house. Worth checking the router's port forwarding page once to make sure nothing "
                    "old is still open from years ago; ISP boxes sometimes have UPnP enabled, which lets "
                    "devices open ports on their own."
                ),
                u(
                    'UPnP was on. Turned it off. The Xbox complained about "strict NAT" straight away, lol. '
                    "\n"
                    "\n"
                    "Ads on the kids' tablets are gone, so blocking works. How do I see which device makes "
                    "the most queries?"
                ),
                a(
                    'The dashboard\'s "Top Clients" panel shows it. For more detail than the UI gives, the '
                    "query log is a SQLite database you can query directly:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    'pct exec 105 -- sqlite3 -header -column /etc/pihole/pihole-FTL.db "\n'
                    "  SELECT client, COUNT(*) AS queries,\n"
                    "         SUM(CASE WHEN status IN (1, 4, 5, 9, 10, 11) THEN 1 ELSE 0 END) AS blocked\n"
                    "  FROM queries\n"
                    "  WHERE timestamp > strftime('%s', 'now', '-1 day')\n"
                    "  GROUP BY client\n"
                    "  ORDER BY queries DESC\n"
                    '  LIMIT 10;"\n'
                    "```\n"
                    "\n"
                    "The status numbers are Pi-hole's codes for the different kinds of blocked queries. If "
                    "you want names instead of IPs in the output, set hostnames for your devices in the "
                    "router's DHCP list and Pi-hole will pick them up."
                ),
                u(
                    "The living room TV does 4000 queries an hour, mostly to Samsung telemetry. Blocked "
                    "anyway, but wow."
                ),
                a(
                    "Smart TVs are famously chatty, and many retry blocked domains in a tight loop, which "
                    "inflates the count. Harmless for Pi-hole at that volume. If it ever bothers you, giving "
                    "the TV no internet at all and using a streaming stick instead is the cleanest fix."
                ),
            ],
        ),
        Session(
            "2026-01-31T21:05:00Z",
            [
                u(
                    'Small panic on Thursday evening. Sunniva shouted "the internet is broken!" because Ada '
                    "couldn't open her homework. Turned out Pi-hole had blocked the school portal, or rather "
                    "the login redirect it goes through (some analytics domain in the middle of the sign-in). "
                    "Allowlisted it in a minute, but I was not popular.",
                    key="mt-outage-1",
                ),
                a(
                    "The classic Pi-hole family moment. For next time, the fastest way to find the culprit is "
                    "to filter the query log by the device that's having trouble and look at what got blocked "
                    "in the last minutes:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "pct exec 105 -- pihole -q portal.example-school.ie\n"
                    'pct exec 105 -- sqlite3 /etc/pihole/pihole-FTL.db "\n'
                    "  SELECT datetime(timestamp, 'unixepoch', 'localtime'), domain\n"
                    "  FROM queries\n"
                    "  WHERE client = '192.168.1.57'\n"
                    "    AND status IN (1, 4, 5, 9, 10, 11)\n"
                    "    AND timestamp > strftime('%s', 'now', '-10 minutes')\n"
                    '  ORDER BY timestamp DESC;"\n'
                    "```\n"
                    "\n"
                    "Replace the client address with the tablet's. And to allowlist from the command line:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "pct exec 105 -- pihole allow sso-analytics.example.com\n"
                    "```\n"
                    "\n"
                    "Nebula-sync will carry it over to the Pi within the hour. It might also be worth giving "
                    'Sunniva a way to pause blocking herself for five minutes, so "the internet is broken" '
                    "doesn't need you."
                ),
                u(
                    "A pause button for Sunniva would be brilliant. Later though. Tonight: Jellyfin. The "
                    "Docker VM is up: Debian 12, 4 cores, 6 GB, called docker1."
                ),
                a(
                    "For hardware transcoding, the VM needs the iGPU. Since pve1 has no monitor attached, the "
                    "simplest route is to pass the whole integrated GPU through to docker1:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "lspci -nn | grep -i vga\n"
                    "qm set 110 --hostpci0 0000:00:02.0,pcie=1\n"
                    "qm set 110 --machine q35\n"
                    "qm start 110\n"
                    "```\n"
                    "\n"
                    "Assuming docker1 is VM 110 and the iGPU shows up at `00:02.0`, which it does on nearly "
                    "every Intel desktop chipset. Inside the VM, `/dev/dri/renderD128` should appear after "
                    "boot, and that's what Jellyfin needs."
                ),
                u(
                    "```\n"
                    "kvm: -device vfio-pci,host=0000:00:02.0,id=hostpci0,bus=ich9-pcie-port-1,addr=0x0: vfio "
                    "0000:00:02.0: failed to setup container for group 1: Failed to set iommu for container: "
                    "Operation not permitted\n"
                    "TASK ERROR: start failed: QEMU exited with code 1\n"
                    "```"
                ),
                a(
                    "IOMMU isn't enabled on the kernel command line. Proxmox 8 on an ext4 or LVM install "
                    "boots with GRUB:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    'sed -i \'s/^GRUB_CMDLINE_LINUX_DEFAULT="quiet"/GRUB_CMDLINE_LINUX_DEFAULT="quiet '
                    "intel_iommu=on iommu=pt\"/' /etc/default/grub\n"
                    "update-grub\n"
                    "printf 'vfio\\nvfio_iommu_type1\\nvfio_pci\\n' >> /etc/modules\n"
                    "update-initramfs -u -k all\n"
                    "reboot\n"
                    "```\n"
                    "\n"
                    "After the reboot, check:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "dmesg | grep -e DMAR -e IOMMU | head\n"
                    "```\n"
                    "\n"
                    'You should see "DMAR: IOMMU enabled". VT-d also has to be on in the BIOS; you did that '
                    "when you set it up, so it should just work."
                ),
                u(
                    "Rebooted, VM starts, /dev/dri/renderD128 is there in docker1. I also bought a 4 TB USB "
                    "drive for the films, plugged into pve1 and passed through to docker1, mounted at "
                    "/mnt/media."
                ),
                a(
                    "Then Jellyfin:\n"
                    "\n"
                    "```yaml\n"
                    "# on docker1: ~/stacks/jellyfin/compose.yaml\n"
                    "services:\n"
                    "  jellyfin:\n"
                    "    image: jellyfin/jellyfin:10.10.3\n"
                    "    container_name: jellyfin\n"
                    "    restart: unless-stopped\n"
                    '    user: "1000:1000"\n'
                    "    group_add:\n"
                    '      - "993"    # render group on docker1: getent group render\n'
                    "    ports:\n"
                    '      - "8096:8096"\n'
                    "    volumes:\n"
                    "      - ./config:/config\n"
                    "      - ./cache:/cache\n"
                    "      - /mnt/media/films:/media/films:ro\n"
                    "      - /mnt/media/series:/media/series:ro\n"
                    "    devices:\n"
                    "      - /dev/dri/renderD128:/dev/dri/renderD128\n"
                    "    environment:\n"
                    "      TZ: Europe/Dublin\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on docker1\n"
                    "cd ~/stacks/jellyfin\n"
                    "docker compose up -d\n"
                    "```\n"
                    "\n"
                    'In the Jellyfin dashboard, under Playback → Transcoding, pick "Intel QuickSync (QSV)" '
                    "and enable hardware decoding for H.264, HEVC and VP9. Media mounted read-only, so "
                    "Jellyfin can never delete a film by accident."
                ),
                u(
                    "Works! A 1080p transcode to my phone uses 15% CPU. Sunniva watched an episode on the "
                    "bedroom TV and said \"oh that's nice\", which is the highest praise I'll get.\n"
                    "\n"
                    "Problem though: the USB drive never spins down. Every few minutes it clicks back up, and "
                    "you can hear it from the hall at night."
                ),
                a(
                    "Something is touching the disk regularly. Two ways to find out what:\n"
                    "\n"
                    "```bash\n"
                    "# on docker1\n"
                    "sudo apt install -y fatrace\n"
                    "sudo fatrace --current-mount -t /mnt/media | head -50\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on docker1\n"
                    "sudo hdparm -C /dev/sdb\n"
                    "```\n"
                    "\n"
                    "`fatrace` prints every file access on that filesystem with the process name; `hdparm -C` "
                    "tells you whether the drive is in standby right now. With a fresh Jellyfin install my "
                    'first suspect is the library option "Enable real-time monitoring": Jellyfin then '
                    "watches the media folders for changes, and on USB drives passed through to a VM that can "
                    "fall back to polling the folders every few minutes, which keeps waking the disk. Turning "
                    "it off and relying on a scheduled library scan is the usual fix for media that rarely "
                    "changes.",
                    key="sf-wake",
                ),
                u(
                    "fatrace showed jellyfin reading the films folder every 5 minutes. Turned that library "
                    "option off and the drive sleeps after 20 minutes now. Silence."
                ),
                a(
                    "Good. So new films still show up, set the scheduled library scan to once a night "
                    "(Dashboard → Scheduled Tasks → Scan Media Library), at a time when nobody is watching. "
                    "Or trigger a scan by hand after you add something."
                ),
                u(
                    "Done. Kids' profiles set up with rating limits too. Rufus already tried to watch "
                    "something rated 15 and got blocked, he was livid."
                ),
                a("Working as intended, then. Six-year-olds are the best penetration testers."),
            ],
        ),
        Session(
            "2026-02-14T11:20:00Z",
            [
                u(
                    "Home Assistant day. Plan: Home Assistant OS as a VM on pve1, restore the backup from the "
                    "Docker install on the Pi. I downloaded haos_ova-14.1.qcow2.xz."
                ),
                a(
                    "Home Assistant OS in a VM is the most painless way to run it: add-ons and updates work "
                    "exactly as on their own hardware. The VM needs UEFI and a q35 machine:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "qm create 120 --name homeassistant --memory 2048 --cores 2 \\\n"
                    "  --machine q35 --bios ovmf --efidisk0 vmdata:1,efitype=4m,pre-enrolled-keys=0 \\\n"
                    "  --net0 virtio,bridge=vmbr0 --scsihw virtio-scsi-pci \\\n"
                    "  --ostype l26 --onboot 1\n"
                    "qm importdisk 120 haos_ova-14.1.qcow2 vmdata\n"
                    "qm set 120 --scsi0 vmdata:vm-120-disk-1 --boot order=scsi0\n"
                    "qm resize 120 scsi0 32G\n"
                    "qm start 120\n"
                    "```\n"
                    "\n"
                    "`pre-enrolled-keys=0` matters: with Microsoft's Secure Boot keys enrolled, HAOS refuses "
                    "to boot."
                ),
                u(
                    "```\n"
                    "root@pve1:~# qm importdisk 120 haos_ova-14.1.qcow2 vmdata\n"
                    "unable to parse volume filename 'haos_ova-14.1.qcow2'\n"
                    "```"
                ),
                a(
                    "The file is still compressed. Decompress it first, in the directory you downloaded it "
                    "to:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "unxz haos_ova-14.1.qcow2.xz\n"
                    "ls -lh haos_ova-14.1.qcow2\n"
                    "qm importdisk 120 haos_ova-14.1.qcow2 vmdata\n"
                    "```\n"
                    "\n"
                    "The import prints the name of the new disk at the end (`vm-120-disk-1` or similar); use "
                    "that in the `qm set --scsi0` line if it differs."
                ),
                u(
                    "Done! Home Assistant is off the Pi now: HAOS runs as VM 120 on pve1, and the backup from "
                    "the Docker install restored cleanly, automations and all. The Zigbee stick moved with "
                    "it, plugged into pve1 and passed through to the VM.",
                    key="mt-moved-2",
                ),
                a(
                    "Great. One thing to check on the Zigbee stick: pass it through by its USB vendor and "
                    "product ID rather than by port, so it survives being plugged into a different socket:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "lsusb\n"
                    "qm set 120 --usb0 host=10c4:ea60\n"
                    "```\n"
                    "\n"
                    "Replace the ID with the one `lsusb` shows for the stick (`10c4:ea60` is the common "
                    "Silicon Labs chip on Sonoff dongles). A short USB extension cable between the stick and "
                    "the M720q also helps a lot: USB 3 ports radiate noise right at the 2.4 GHz frequencies "
                    "Zigbee uses."
                ),
                u("Everything came back except the two bulbs in Rufus's room. They show as unavailable."),
                a(
                    "Bulbs are mains-powered routers in the Zigbee mesh, and after a coordinator move they "
                    "sometimes don't rejoin on their own. In order of effort:\n"
                    "\n"
                    "1. Power-cycle them at the wall switch, wait a minute.\n"
                    "2. If they stay unavailable, check the Zigbee map in ZHA or Zigbee2MQTT: if they're not "
                    "connected to anything, they need re-pairing.\n"
                    '3. To re-pair without losing their entity names: in ZHA, "Reconfigure" first; in '
                    "Zigbee2MQTT, permit join and reset the bulb (usually five on-off cycles), it keeps its "
                    "friendly name if the IEEE address is the same.\n"
                    "\n"
                    "Rufus's room is probably the furthest from the hall cupboard, so it may also just be "
                    "range now that the stick has moved."
                ),
                u("Power cycle did it. Now, the pause button for Sunniva!"),
                a(
                    "Pi-hole 6 has a REST API that can disable blocking for a number of seconds. From Home "
                    "Assistant, a `rest_command` for each Pi-hole, and a script that calls both:\n"
                    "\n"
                    "```yaml\n"
                    "# on Home Assistant (VM 120): configuration.yaml\n"
                    "rest_command:\n"
                    "  pihole_pause_primary:\n"
                    '    url: "http://pihole.home.arpa/api/dns/blocking"\n'
                    "    method: POST\n"
                    "    headers:\n"
                    "      X-FTL-SID: !secret pihole_primary_sid\n"
                    '    payload: \'{"blocking": false, "timer": 300}\'\n'
                    '    content_type: "application/json"\n'
                    "  pihole_pause_secondary:\n"
                    '    url: "http://pi.home.arpa/api/dns/blocking"\n'
                    "    method: POST\n"
                    "    headers:\n"
                    "      X-FTL-SID: !secret pihole_secondary_sid\n"
                    '    payload: \'{"blocking": false, "timer": 300}\'\n'
                    '    content_type: "application/json"\n'
                    "\n"
                    "script:\n"
                    "  pause_ad_blocking:\n"
                    '    alias: "Pause ad blocking for 5 minutes"\n'
                    "    icon: mdi:shield-off\n"
                    "    sequence:\n"
                    "      - action: rest_command.pihole_pause_primary\n"
                    "      - action: rest_command.pihole_pause_secondary\n"
                    "```\n"
                    "\n"
                    "Then put the script on a dashboard as a button."
                ),
                u(
                    "```\n"
                    "Error. Url: http://pihole.home.arpa/api/dns/blocking. Status code 401. Payload: "
                    'b\'{"blocking": false, "timer": 300}\'\n'
                    "```"
                ),
                a(
                    "My mistake: a session ID isn't a fixed secret, it expires. The Pi-hole 6 API wants you "
                    "to log in first (`POST /api/auth` with the app password), get a fresh session ID, and "
                    "use that. Easiest is a small shell command in Home Assistant that does both steps:\n"
                    "\n"
                    "```yaml\n"
                    "# on Home Assistant (VM 120): configuration.yaml\n"
                    "shell_command:\n"
                    "  pihole_pause: >-\n"
                    "    for host in pihole.home.arpa pi.home.arpa; do\n"
                    '      sid=$(curl -s -X POST "http://$host/api/auth" -d \'{"password":"{{ password '
                    "}}\"}' | jq -r .session.sid);\n"
                    '      curl -s -X POST "http://$host/api/dns/blocking" -H "X-FTL-SID: $sid" -d '
                    '\'{"blocking":false,"timer":300}\';\n'
                    '      curl -s -X DELETE "http://$host/api/auth" -H "X-FTL-SID: $sid";\n'
                    "    done\n"
                    "```\n"
                    "\n"
                    "Call it from the script with the app password from `secrets.yaml` as the `password` "
                    "variable. The final `DELETE` logs the session out again, so sessions don't pile up until "
                    "Pi-hole's limit."
                ),
                u(
                    "Works! Button's on the kitchen tablet dashboard. Sunniva already used it once for a "
                    "recipe site, and didn't have to call me."
                ),
                a("That's the best kind of home automation: the kind that removes you from the loop."),
                u(
                    "Next request from the household: Ada now wants a Minecraft server for her and two "
                    'friends from school. Apparently "everyone has one".',
                    key="sf-ada",
                ),
                a(
                    "If they play on tablets, it has to be Bedrock Edition (the Java server won't talk to "
                    "tablets). A Bedrock server is light, well under 1 GB of RAM for three kids, and fits in "
                    "the Docker VM:\n"
                    "\n"
                    "```yaml\n"
                    "# on docker1: ~/stacks/minecraft/compose.yaml\n"
                    "services:\n"
                    "  bedrock:\n"
                    "    image: itzg/minecraft-bedrock-server:latest\n"
                    "    container_name: minecraft-bedrock\n"
                    "    restart: unless-stopped\n"
                    "    environment:\n"
                    '      EULA: "TRUE"\n'
                    '      SERVER_NAME: "Cupboard Craft"\n'
                    "      GAMEMODE: survival\n"
                    "      DIFFICULTY: easy\n"
                    '      ALLOW_CHEATS: "false"\n'
                    '      ONLINE_MODE: "true"\n'
                    '      ALLOW_LIST: "true"\n'
                    '      ALLOW_LIST_USERS: "player1:xuid1,player2:xuid2"\n'
                    "    ports:\n"
                    '      - "19132:19132/udp"\n'
                    "    volumes:\n"
                    "      - ./data:/data\n"
                    "    stdin_open: true\n"
                    "    tty: true\n"
                    "```\n"
                    "\n"
                    "The allow list means only the kids' Xbox accounts can join. On the home network the "
                    'tablets will find it under "LAN Games" automatically.'
                ),
                u(
                    "LAN only is perfect, the friends play when they're over. Happy Valentine's day btw: "
                    "Sunniva got flowers, I got a Zigbee button, so we're both happy."
                ),
                a("Sounds like a balanced Valentine's. Enjoy the day."),
            ],
        ),
        Session(
            "2026-02-28T19:45:00Z",
            [
                u(
                    "Backups, finally, before something breaks. What I care about: the photos (the 1.6 TB on "
                    "the Pi's USB disk), the Home Assistant and Jellyfin configs, and the VMs and containers "
                    "themselves. I'd like one copy off-site. Budget is small."
                ),
                a(
                    "The usual target is 3-2-1: three copies, on two kinds of storage, one off-site. For you "
                    "that could be:\n"
                    "\n"
                    "1. **The originals** where they are now.\n"
                    "2. **A local backup disk** on pve1, for fast restores of a VM or a deleted folder.\n"
                    "3. **An off-site copy** in cheap object storage. Backblaze B2 costs about $6 per TB per "
                    "month; your 1.6 TB of photos plus a few compressed VM dumps comes to roughly €10 to €12 "
                    "a month.\n"
                    "\n"
                    "For the tooling: Proxmox's own `vzdump` for the VMs and containers (it knows how to "
                    "snapshot them consistently), and `restic` for files and for shipping everything "
                    "off-site, encrypted, with deduplication so only changes upload each night. One script on "
                    "pve1, run nightly, that does both in order, is the easiest to keep an eye on.\n"
                    "\n"
                    "Do you have a disk for the local copy?"
                ),
                u(
                    "An old 3 TB disk from my previous PC. I'll put it in a USB dock on pve1, mounted as "
                    "/mnt/backup. And I made a Backblaze account."
                ),
                a(
                    "Add the disk as Proxmox backup storage so `vzdump` can write to it:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "mkfs.ext4 -L backup /dev/sdc\n"
                    "mkdir -p /mnt/backup\n"
                    "echo 'LABEL=backup /mnt/backup ext4 defaults,nofail,x-systemd.device-timeout=10s 0 2' >> "
                    "/etc/fstab\n"
                    "mount /mnt/backup\n"
                    "pvesm add dir backup --path /mnt/backup --content backup --prune-backups keep-last=3\n"
                    "```\n"
                    "\n"
                    "`nofail` means pve1 still boots if the dock is unplugged, which you want for a USB disk. "
                    "`keep-last=3` keeps three local dumps per guest; older ones are removed automatically.\n"
                    "\n"
                    "Next comes the off-site part, once the disk shows up in the UI."
                ),
                u('Disk\'s there, shows as "backup" in the UI. Off-site next.'),
                a(
                    "In B2, create a private bucket (no object lock for now) and an application key "
                    "restricted to that bucket only. Bucket names are global across all of B2, so pick "
                    "something unique, like ohara-family-backup. Then the environment file, readable by root "
                    "only:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1: /etc/restic/env (chmod 600)\n"
                    'export B2_BUCKET="ohara-family-backup"\n'
                    'export RESTIC_REPOSITORY="b2:${B2_BUCKET}:/pve1"\n'
                    'export RESTIC_PASSWORD_FILE="/etc/restic/password"\n'
                    'export B2_ACCOUNT_ID="your-key-id"\n'
                    'export B2_ACCOUNT_KEY="your-application-key"\n'
                    "```\n"
                    "\n"
                    "And the nightly script:\n"
                    "\n"
                    "```bash\n"
                    "#!/usr/bin/env bash\n"
                    "# on pve1: /usr/local/bin/nightly-backup.sh\n"
                    "set -euo pipefail\n"
                    "source /etc/restic/env\n"
                    "\n"
                    "# 1. Local dumps of every VM and container\n"
                    "vzdump --all --mode snapshot --compress zstd --storage backup --quiet 1\n"
                    "\n"
                    "# 2. Off-site: the dumps, the photos, and the host's own config\n"
                    "restic backup --tag nightly --limit-upload 1500 \\\n"
                    "  /mnt/backup/dump \\\n"
                    "  /mnt/photos \\\n"
                    "  /etc/pve /etc/network/interfaces /etc/restic\n"
                    "\n"
                    "# 3. Keep a sensible history, drop the rest\n"
                    "restic forget --tag nightly --keep-daily 7 --keep-weekly 4 --keep-monthly 6 --prune\n"
                    "```\n"
                    "\n"
                    "Before the first run, create the repository with `restic init` (after `source "
                    "/etc/restic/env`), and **write the password from `/etc/restic/password` down somewhere "
                    "that isn't this server**. Without it the backup is unreadable, which is the point of the "
                    "encryption and also the most common way people lose their backups.",
                    key="code-restic",
                ),
                u(
                    "Password is in the family password manager and on paper in the drawer with the "
                    "passports. But the photos are on the Pi, not on pve1?"
                ),
                a(
                    "Right, the script expects them at `/mnt/photos`. Rather than running a second backup on "
                    "the Pi, export the photo folder read-only from the Pi and mount it on pve1, so one "
                    "script on one machine does everything:\n"
                    "\n"
                    "```bash\n"
                    "# on the Pi\n"
                    "sudo apt install -y nfs-kernel-server\n"
                    "echo '/srv/photos 192.168.1.0/24(ro,no_subtree_check,all_squash)' | sudo tee -a "
                    "/etc/exports\n"
                    "sudo exportfs -ra\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "apt install -y nfs-common\n"
                    "mkdir -p /mnt/photos\n"
                    "echo 'pi.home.arpa:/srv/photos /mnt/photos nfs ro,soft,timeo=50,_netdev,nofail 0 0' >> "
                    "/etc/fstab\n"
                    "mount /mnt/photos\n"
                    "```\n"
                    "\n"
                    "Read-only on both ends: a bug in a backup script should never be able to delete photos."
                ),
                u("```\nmount.nfs: access denied by server while mounting pi.home.arpa:/srv/photos\n```"),
                a(
                    "Usually one of two things:\n"
                    "\n"
                    "1. **The export path doesn't match.** If `/srv/photos` is a symlink, or the disk is "
                    "actually mounted at `/media/usb/photos`, the server refuses. Check with `exportfs -v` on "
                    "the Pi, and use the real mount path.\n"
                    "2. **The USB disk's filesystem doesn't support NFS export well.** exFAT and NTFS need "
                    "`fsid=` in the export options:\n"
                    "\n"
                    "```bash\n"
                    "# on the Pi\n"
                    "sudo sed -i "
                    "'s|(ro,no_subtree_check,all_squash)|(ro,no_subtree_check,all_squash,fsid=1)|' "
                    "/etc/exports\n"
                    "sudo exportfs -ra\n"
                    "sudo exportfs -v\n"
                    "```\n"
                    "\n"
                    "The second is very likely if that disk came formatted for Windows."
                ),
                u("It's exFAT, yep. fsid=1 fixed it. Mounted on pve1. Ready for the schedule."),
                a(
                    "A systemd timer rather than cron, because it logs every run to the journal and can catch "
                    "up on a missed run:\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/systemd/system/nightly-backup.service\n"
                    "[Unit]\n"
                    "Description=Nightly vzdump and restic backup\n"
                    "After=network-online.target mnt-backup.mount mnt-photos.mount\n"
                    "Wants=network-online.target\n"
                    "\n"
                    "[Service]\n"
                    "Type=oneshot\n"
                    "ExecStart=/usr/local/bin/nightly-backup.sh\n"
                    "Nice=10\n"
                    "IOSchedulingClass=idle\n"
                    "```\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/systemd/system/nightly-backup.timer\n"
                    "[Unit]\n"
                    "Description=Run the nightly backup\n"
                    "\n"
                    "[Timer]\n"
                    "OnCalendar=*-*-* 02:00:00\n"
                    "Persistent=true\n"
                    "RandomizedDelaySec=5min\n"
                    "\n"
                    "[Install]\n"
                    "WantedBy=timers.target\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "systemctl daemon-reload\n"
                    "systemctl enable --now nightly-backup.timer\n"
                    "systemctl list-timers nightly-backup.timer\n"
                    "```\n"
                    "\n"
                    "`Persistent=true` runs a missed backup at the next boot if pve1 was off at the scheduled "
                    "time, after a power cut for example.",
                    key="ku-backup-1",
                ),
                u("Started the first run by hand. restic says ETA 6 days 14 hours for the photos, lol. Upload life."),
                a(
                    "Expected with that upload and the limit in the script: it's the first run, everything is "
                    "new. Two things to know while it runs:\n"
                    "\n"
                    '- restic takes a lock on the repository, so the nightly run will fail with "repository '
                    "is already locked\" until the first one finishes. That's harmless; the timer tries again "
                    "the next night.\n"
                    "- If the first run gets interrupted, the next one doesn't start from zero: chunks "
                    "already uploaded are reused."
                ),
                u(
                    "Good. I'll leave it chugging. Set the upload limit so Netflix still works in the "
                    "evening, seems fine."
                ),
                a(
                    "Sounds good. Once it completes, do a test restore of one folder to a temporary path. A "
                    "backup you haven't restored from is only a hope:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "source /etc/restic/env\n"
                    "restic snapshots --tag nightly\n"
                    "restic restore latest --target /tmp/restore-test --include /mnt/photos/2019/summer\n"
                    "ls /tmp/restore-test/mnt/photos/2019/summer | head\n"
                    "```"
                ),
            ],
        ),
        Session(
            "2026-03-14T21:30:00Z",
            [
                u(
                    "Few updates from the house. We switched electricity supplier at the start of the month: "
                    "the new contract is 29.5 cent per kWh, fixed for a year, which is a relief. That got me "
                    "to finally put the metering smart plug on the cupboard: pve1, the Pi, the router and "
                    "both USB disks together pull 31 W on average over a week. The first full backup finished "
                    "on Tuesday too, 6 days and change like restic said. And Rufus has had a cold all week so "
                    "nobody in this house has slept, apologies in advance if I ask something stupid.",
                    key="ku-price-2",
                ),
                a(
                    "Sorry about the sleepless week, hope he's better soon.\n"
                    "\n"
                    "At 31 W around the clock, the cupboard uses about 22.6 kWh a month, which at the new "
                    "price is about €6.70 a month. That's everything, router included, so the servers "
                    "themselves are a bit less than that. Roughly, from what these parts typically draw:\n"
                    "\n"
                    "- router: 8 to 10 W\n"
                    "- pve1 with its SSDs: 10 to 12 W\n"
                    "- the Pi: 3 to 4 W\n"
                    "- the two USB disks: 5 to 8 W when spinning, under 1 W asleep\n"
                    "\n"
                    "The one obvious saving left is making sure the disks really sleep when nothing needs "
                    "them, and letting the CPU and SATA links use their power-saving states. `powertop` can "
                    "show what's not in a low-power state."
                ),
                u("powertop on the Proxmox host? Is that safe?"),
                a(
                    "Yes, it's in Debian's repositories and only changes kernel power settings, nothing "
                    "persistent unless you make it so:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "apt install -y powertop\n"
                    "powertop --calibrate   # optional, takes a few minutes, screen goes a bit mad\n"
                    'powertop               # Tab over to "Tunables"\n'
                    "```\n"
                    "\n"
                    'The "Tunables" tab lists settings marked "Bad" that could save power. `powertop '
                    '--auto-tune` sets all of them to "Good" in one go, until the next reboot.'
                ),
                u(
                    "Tunables page says:\n"
                    "\n"
                    "```\n"
                    "   Bad           Enable SATA link power management for host0\n"
                    "   Bad           Enable SATA link power management for host1\n"
                    "   Bad           Autosuspend for USB device Sonoff Zigbee 3.0 USB Dongle Plus [Silicon "
                    "Labs]\n"
                    "   Bad           Autosuspend for USB device USB 3.0 Dock [JMicron]\n"
                    "   Bad           Runtime PM for PCI Device Intel Corporation Ethernet Connection (7) "
                    "I219-LM\n"
                    "   Good          VM writeback timeout\n"
                    "```"
                ),
                a(
                    "Auto-tune everything except the Zigbee stick: a USB radio that suspends drops off the "
                    "Zigbee network. Make the tuning persistent with a service that runs auto-tune at boot "
                    "and then switches the stick's autosuspend back off:\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/systemd/system/powertop.service\n"
                    "[Unit]\n"
                    "Description=powertop auto-tune\n"
                    "After=multi-user.target\n"
                    "\n"
                    "[Service]\n"
                    "Type=oneshot\n"
                    "ExecStart=/usr/sbin/powertop --auto-tune\n"
                    "ExecStartPost=/bin/sh -c 'for d in /sys/bus/usb/devices/*; do [ \"$(cat $d/idVendor "
                    '2>/dev/null)" = "10c4" ] && echo on > $d/power/control; done\'\n'
                    "\n"
                    "[Install]\n"
                    "WantedBy=multi-user.target\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "systemctl daemon-reload\n"
                    "systemctl enable --now powertop.service\n"
                    "```\n"
                    "\n"
                    "The network card's runtime PM is usually fine on the I219, but if you ever see the link "
                    "drop under load, that's the setting to revert first."
                ),
                u(
                    "Ha, I'd already run auto-tune before reading your message and the Zigbee stick dropped "
                    "straight away. With the service it's fine. Plug says 26 W now."
                ),
                a(
                    "That's a decent drop for ten minutes' work: about 3.6 kWh a month less, just over €1 a "
                    "month. Not life-changing, but it adds up over the years and it's free."
                ),
                u(
                    "Another thing off the Pi: the UniFi controller for our two access points used to run "
                    "there in Docker. It's now on docker1 with a compose file like the others, and both APs "
                    "adopted fine after a set-inform.",
                    key="mt-moved-3",
                ),
                a(
                    "Good. Two things with UniFi specifically:\n"
                    "\n"
                    "- The controller's own backups (Settings → System → Backups) are worth turning on with a "
                    "daily schedule; they land in its data volume, which the nightly vzdump of docker1 "
                    "already picks up.\n"
                    "- If you're on one of the images that bundles MongoDB, don't upgrade the MongoDB version "
                    "in place; move to the image that has a separate database container when you upgrade "
                    "next, that's where most of the UniFi-in-Docker breakage comes from.\n"
                    "\n"
                    "Since the APs only need the controller for configuration changes, a UniFi outage doesn't "
                    "take the wifi down, so it's a low-risk service to host anywhere."
                ),
                u(
                    "So what's left on the Pi is the secondary Pi-hole, nebula-sync and the photo disk. Is it "
                    "still worth running at all?"
                ),
                a(
                    "As the second DNS server, yes: it's the reason a pve1 reboot doesn't take the house's "
                    "internet with it. At 3 to 4 W it costs about 2.6 kWh a month, well under €1 a month.\n"
                    "\n"
                    "The photo disk is the weaker part: it's the *original* copy of the most precious data, "
                    "on exFAT, on USB, on a Pi. At some point it would be worth moving the photos onto a "
                    "proper disk in pve1 (or a NAS) and keeping the Pi as a small DNS box only. No rush while "
                    "backups run every night."
                ),
                u(
                    "Keeping it then. Sunniva asked if the cupboard gets hot since it's closed. Thermometer "
                    "says 31 degrees in there."
                ),
                a(
                    "31 °C air temperature is fine for this hardware, but check the CPU and disks themselves:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "apt install -y lm-sensors smartmontools\n"
                    "sensors | grep -E 'Package|Core'\n"
                    "smartctl -A /dev/sdb | grep -i temp\n"
                    "smartctl -A /dev/sdc | grep -i temp\n"
                    "```\n"
                    "\n"
                    "CPU under 60 °C at idle and disks under 45 °C are comfortable. If the disks are above 50 "
                    "°C, a few centimetres of space around the USB enclosures, or a slot in the cupboard "
                    "door, makes a bigger difference than anything else."
                ),
                u("CPU 48 idle, disks 39 and 41. Fine then."),
                a("All comfortable. Worth checking once in summer, when the cupboard will be warmer."),
            ],
        ),
        Session(
            "2026-03-29T10:10:00Z",
            [
                u(
                    "Saturday morning drama: the internet went down for everyone. Turns out the Pi's SD card "
                    "died (filesystem went read-only, then nothing at all), at the exact moment pve1 was "
                    "rebooting for a kernel update I'd started from my phone. So for about ten minutes there "
                    "was no DNS in the house at all, and three people told me the internet was broken.",
                    key="mt-outage-2",
                ),
                a(
                    "Bad luck with the timing, but it's the failure the two-DNS setup can't cover: both at "
                    "once. Two lessons:\n"
                    "\n"
                    "1. **Don't reboot one DNS server without checking the other is up.** A one-liner before "
                    "any reboot of pve1:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "dig +short +time=2 @pi.home.arpa example.com || echo \"secondary DNS is down, don't "
                    'reboot now"\n'
                    "```\n"
                    "\n"
                    "2. **SD cards are the weakest part of a Pi** that runs 24/7: constant small writes "
                    "(logs, Pi-hole's database) wear them out. A Pi 4 can boot from a USB SSD, which lasts "
                    "far longer.\n"
                    "\n"
                    "The good news: nothing on the Pi was irreplaceable. The photos are on the USB disk, not "
                    "the SD card, and they're backed up anyway."
                ),
                u("The Pi 4 can boot from USB? I have a spare 120 GB SSD and a SATA-to-USB cable."),
                a(
                    "Yes, with a recent bootloader, which any Pi 4 updated in the last few years has. Since "
                    "the SD card is dead, do it from another machine with Raspberry Pi Imager: write "
                    "Raspberry Pi OS Lite (64-bit) directly to the SSD, and in the Imager's settings set the "
                    "hostname, your user, SSH key and locale.\n"
                    "\n"
                    "If the Pi doesn't boot from the SSD on its own, the boot order needs changing, which you "
                    "can do with a temporary SD card:\n"
                    "\n"
                    "```bash\n"
                    "# on the Pi (booted from any SD card)\n"
                    "sudo rpi-eeprom-update -a\n"
                    "sudo rpi-eeprom-config --edit\n"
                    "# set: BOOT_ORDER=0xf41   (try USB first, then SD, then repeat)\n"
                    "sudo reboot\n"
                    "```\n"
                    "\n"
                    "Some SATA-to-USB cables have a chipset the Pi doesn't get along with (the symptom is "
                    "random disconnects); if you see that, an adapter with an ASMedia chip usually fixes it."
                ),
                u(
                    "Booted from the SSD first try. What do I need to bring back? Secondary Pi-hole, "
                    "nebula-sync, the NFS export, anything else?"
                ),
                a(
                    "That's the list, plus the static address. In order:\n"
                    "\n"
                    "```bash\n"
                    "# on the Pi\n"
                    'sudo nmcli con mod "Wired connection 1" ipv4.method manual \\\n'
                    "  ipv4.addresses 192.168.1.2/24 ipv4.gateway 192.168.1.254 ipv4.dns 127.0.0.1\n"
                    'sudo nmcli con up "Wired connection 1"\n'
                    "\n"
                    "curl -sSL https://install.pi-hole.net | sudo bash\n"
                    "\n"
                    "sudo apt install -y docker.io docker-compose-plugin nfs-kernel-server\n"
                    "echo '/srv/photos 192.168.1.0/24(ro,no_subtree_check,all_squash,fsid=1)' | sudo tee -a "
                    "/etc/exports\n"
                    "sudo exportfs -ra\n"
                    "```\n"
                    "\n"
                    "Then copy the nebula-sync compose file and its `.env` back (from docker1's notes or your "
                    "own copy), and `docker compose up -d`. Nebula-sync will copy all settings and lists from "
                    "the primary at its next run, so you don't need to restore Pi-hole's settings by hand.\n"
                    "\n"
                    "Check the USB photo disk's `fstab` line too, since it was on the old SD card."
                ),
                u(
                    "All back, photos export included. Lesson learned: put the Pi's config in git so I'm not "
                    "rebuilding everything from memory."
                ),
                a(
                    "A small private repo with the stacks and the few system files you've changed is enough:\n"
                    "\n"
                    "```text\n"
                    "homelab/\n"
                    "├── pi/\n"
                    "│   ├── stacks/nebula-sync/compose.yaml\n"
                    "│   ├── etc/exports\n"
                    "│   └── etc/fstab.snippet\n"
                    "├── docker1/\n"
                    "│   └── stacks/{jellyfin,unifi,minecraft}/compose.yaml\n"
                    "├── pve1/\n"
                    "│   ├── usr/local/bin/nightly-backup.sh\n"
                    "│   └── etc/systemd/system/{nightly-backup,powertop}.{service,timer}\n"
                    "└── README.md   # what runs where, and how to rebuild each box\n"
                    "```\n"
                    "\n"
                    "Keep `.env` files and the restic password out of it (`.gitignore` them), and store those "
                    "in the password manager. The README is the part you'll thank yourself for: a half-page "
                    "per machine on how to rebuild it from nothing."
                ),
                u(
                    "Also changed the backup schedule this week: the nightly backup and the Jellyfin library "
                    "scan were both hammering the disks around 2am and the backup took 3 hours. I moved the "
                    "timer to 04:30, and now it's done by about 5:15.",
                    key="ku-backup-2",
                ),
                a(
                    "Makes sense: two jobs reading the same USB disks at once is slower than running them one "
                    "after the other, because the disk heads spend their time jumping between the two. Since "
                    "the timer has `RandomizedDelaySec`, it will start within five minutes of the new time. "
                    "You can confirm the next run with `systemctl list-timers nightly-backup.timer`."
                ),
                u(
                    'Could the backup tell me when it fails? I only noticed the "repository locked" errors '
                    "by accident in the journal."
                ),
                a(
                    "systemd can start another unit when a service fails. A template unit that sends a push "
                    "notification through ntfy, which has a free app and needs no account:\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/systemd/system/notify-failure@.service\n"
                    "[Unit]\n"
                    "Description=Push a notification that %i failed\n"
                    "\n"
                    "[Service]\n"
                    "Type=oneshot\n"
                    "ExecStart=/usr/bin/curl -fsS \\\n"
                    '  -H "Title: %i failed on pve1" \\\n'
                    '  -H "Priority: high" \\\n'
                    '  -d "See: journalctl -u %i -n 50" \\\n'
                    "  https://ntfy.sh/ohara-pve1-7f3k2q\n"
                    "```\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: add to /etc/systemd/system/nightly-backup.service, under [Unit]\n"
                    "OnFailure=notify-failure@%n.service\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "systemctl daemon-reload\n"
                    "```\n"
                    "\n"
                    "The topic name is effectively the password on the public ntfy server, so make it long "
                    "and random, and subscribe to it in the app. Only outgoing traffic, nothing to open on "
                    "the router.",
                    key="rc-req-ntfy",
                ),
                u("Subscribed. Got a test push on my phone."),
                a(
                    "Then test the real path once: make the backup fail on purpose and check the notification "
                    "arrives. Unplugging the backup disk's dock and starting the service by hand is a "
                    "realistic test:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "systemctl start nightly-backup.service\n"
                    "systemctl status nightly-backup.service --no-pager\n"
                    "```"
                ),
                u(
                    "Unplugged the dock, started it: failed, notification arrived within seconds, and pve1 "
                    "itself didn't care thanks to nofail. 👍"
                ),
                a(
                    "That's the whole chain tested: failure, notification, and a host that keeps running. "
                    "Plug the dock back in and the next night's run will be normal."
                ),
            ],
        ),
        Session(
            "2026-04-12T16:00:00Z",
            [
                u(
                    "Big news: fibre finally arrived on Wednesday! We're on 500 Mbit/s up and 1 Gbit down "
                    "now. The engineer was here three hours drilling through the front wall, and the kids "
                    "watched the whole thing like it was television. It came with a new ISP box, which "
                    "luckily kept the same address, but I had to redo the DHCP settings so it hands out both "
                    "Pi-holes again. First thing I noticed afterwards: the upload limit in the backup script "
                    "is silly now.",
                    key="ku-upload-2",
                ),
                a(
                    "Congratulations, that's a huge jump. Check that every device got the new DNS settings: "
                    "leases from the old box can linger until they expire, so some devices may still be "
                    "pointing at whatever the new box handed out on its first day.\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "pct exec 105 -- pihole -c -e | head -20\n"
                    "```\n"
                    "\n"
                    "If the number of clients in Pi-hole is roughly what it was before, you're good.\n"
                    "\n"
                    "For the backup, `--limit-upload 1500` is in KiB/s, about 12 Mbit/s. You can raise it a "
                    "lot now without anyone noticing in the evening. Something like 20 MiB/s leaves plenty of "
                    "room:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1: /usr/local/bin/nightly-backup.sh\n"
                    "restic backup --tag nightly --limit-upload 20000 \\\n"
                    "```\n"
                    "\n"
                    "And since it runs in the early morning anyway, you could also drop the limit entirely."
                ),
                u(
                    "Sunniva wants her phone photos backed up automatically. Her phone is always full, Google "
                    "Photos is full, and she refuses to pay for more."
                ),
                a(
                    "Immich is the self-hosted option closest to Google Photos: phone app with automatic "
                    "upload, timeline, face grouping, albums. It runs as a few containers on docker1:\n"
                    "\n"
                    "```yaml\n"
                    "# on docker1: ~/stacks/immich/compose.yaml\n"
                    "name: immich\n"
                    "services:\n"
                    "  immich-server:\n"
                    "    image: ghcr.io/immich-app/immich-server:${IMMICH_VERSION:-release}\n"
                    "    volumes:\n"
                    "      - ${UPLOAD_LOCATION}:/usr/src/app/upload\n"
                    "      - /etc/localtime:/etc/localtime:ro\n"
                    "    env_file: .env\n"
                    "    ports:\n"
                    '      - "2283:2283"\n'
                    "    depends_on: [redis, database]\n"
                    "    restart: unless-stopped\n"
                    "\n"
                    "  immich-machine-learning:\n"
                    "    image: ghcr.io/immich-app/immich-machine-learning:${IMMICH_VERSION:-release}\n"
                    "    volumes:\n"
                    "      - model-cache:/cache\n"
                    "    env_file: .env\n"
                    "    restart: unless-stopped\n"
                    "\n"
                    "  redis:\n"
                    "    image: docker.io/valkey/valkey:8-bookworm\n"
                    "    restart: unless-stopped\n"
                    "\n"
                    "  database:\n"
                    "    image: ghcr.io/immich-app/postgres:14-vectorchord0.3.0-pgvectors0.2.0\n"
                    "    environment:\n"
                    "      POSTGRES_PASSWORD: ${DB_PASSWORD}\n"
                    "      POSTGRES_USER: ${DB_USERNAME}\n"
                    "      POSTGRES_DB: ${DB_DATABASE_NAME}\n"
                    "    volumes:\n"
                    "      - ${DB_DATA_LOCATION}:/var/lib/postgresql/data\n"
                    "    restart: unless-stopped\n"
                    "\n"
                    "volumes:\n"
                    "  model-cache:\n"
                    "```\n"
                    "\n"
                    "Take the `.env` from Immich's release page and set `UPLOAD_LOCATION` to a folder on a "
                    "disk with room to grow; the photos are the bulk of it. Immich changes fast, so pin "
                    "`IMMICH_VERSION` to a specific release and read the release notes before bumping it."
                ),
                u(
                    "```\n"
                    "immich_server  | [Nest] 7  - 04/12/2026, 4:41:09 PM   ERROR "
                    "[Microservices:DatabaseService] Connection to database failed: error: password "
                    'authentication failed for user "postgres"\n'
                    "```"
                ),
                a(
                    "The database container initialised its data directory with one password, and the server "
                    "is now using another. That happens when the `.env` was edited after the first `up`: "
                    "Postgres only reads `POSTGRES_PASSWORD` when it creates the database, later changes are "
                    "ignored.\n"
                    "\n"
                    "Since there's no data yet, the quickest fix is to start the database fresh:\n"
                    "\n"
                    "```bash\n"
                    "# on docker1\n"
                    "cd ~/stacks/immich\n"
                    "docker compose down\n"
                    "sudo rm -rf ./postgres     # whatever DB_DATA_LOCATION points to\n"
                    "docker compose up -d\n"
                    "docker compose logs -f immich-server\n"
                    "```\n"
                    "\n"
                    "Only do the `rm` now, while it's empty. Once photos are in, the database holds all the "
                    "albums and faces."
                ),
                u("Working. Her phone is uploading over wifi at home: 41,000 photos, it says about a day."),
                a(
                    "Let it run overnight. Two things to sort while it does:\n"
                    "\n"
                    "- **Backups:** the upload folder and the database need to be in the nightly backup. Add "
                    "the upload folder to the restic paths, and dump the database before restic runs, because "
                    "copying a running Postgres data directory isn't a reliable backup:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1: /usr/local/bin/nightly-backup.sh, before the restic step\n"
                    "ssh docker1 'docker exec immich-database-1 pg_dumpall -U postgres' | zstd > "
                    "/mnt/backup/immich-db.sql.zst\n"
                    "```\n"
                    "\n"
                    '- **The phone app\'s setting** "Back up only on wifi" should stay on, so it never uses '
                    "her mobile data."
                ),
                u("Added both. The backup is growing of course, B2 was €9 this month."),
                a(
                    "Still reasonable for what it protects. restic deduplicates, so the cost will grow with "
                    "new photos, not with the number of nights. If it ever creeps up, the retention policy is "
                    "the lever: fewer monthly snapshots means less history to keep, though for photos that "
                    "are only ever added, it makes little difference."
                ),
                u(
                    'Rufus asked why the TV says "Jellyfin" and not "Netflix". I told him it\'s Daddy\'s '
                    "Netflix. He wasn't impressed."
                ),
                a(
                    "Tough crowd. Maybe a custom logo on the home screen would win him over: Jellyfin lets "
                    "you set a splash screen and a login disclaimer under Dashboard → General → Branding."
                ),
                u(
                    'Random question: Proxmox shows "You do not have a valid subscription" every time I log '
                    "in. Can I make it go away?"
                ),
                a(
                    "It's harmless: the free repository you set up gets the same software, and the popup is "
                    "Proxmox's nudge to buy support. You can patch it out of the web UI's JavaScript; the "
                    "patch is reverted whenever the `proxmox-widget-toolkit` package updates, so it needs "
                    "reapplying:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "cp /usr/share/javascript/proxmox-widget-toolkit/proxmoxlib.js{,.bak}\n"
                    "sed -i.orig \"s/res.data.status.toLowerCase() !== 'active'/false/\" \\\n"
                    "  /usr/share/javascript/proxmox-widget-toolkit/proxmoxlib.js\n"
                    "systemctl restart pveproxy\n"
                    "```\n"
                    "\n"
                    "Clear the browser cache afterwards. Or just click OK, which is what a lot of people end "
                    "up doing after the third time the patch got reverted."
                ),
                u("I'll live with the popup. Clicking OK is a lifestyle now."),
                a("Very zen. It's one click, and it never breaks after an update."),
            ],
        ),
        Session(
            "2026-04-26T20:40:00Z",
            [
                u(
                    "We had a 40-minute power cut on Thursday. Everything came back on its own (thank you, "
                    "BIOS setting), but the restic repository had a stale lock the next night and Home "
                    "Assistant took ages to come back. Should I get a UPS?"
                ),
                a(
                    "For this setup, yes, a small one is worth it. Not to ride out 40 minutes, but to shut "
                    "things down cleanly after a few minutes on battery, so nothing is cut mid-write and "
                    "everything comes back in a known state.\n"
                    "\n"
                    "A line-interactive UPS around 700 VA is plenty for a 26 W cupboard: it would run for 30 "
                    "minutes or more, and you only need five. Look for one with a USB data port, so pve1 can "
                    "read its status. APC Back-UPS and Eaton Ellipse models are well supported by NUT, the "
                    "standard Linux UPS software.\n"
                    "\n"
                    "The UPS itself uses some power too, typically 2 to 4 W in standby: about 2.2 kWh a "
                    "month, roughly €0.65 a month at your price."
                ),
                u(
                    "Bought an APC Back-UPS 700, USB cable into pve1. Router, pve1 and the Pi are on the "
                    "battery sockets."
                ),
                a(
                    "NUT on pve1, as the machine that talks to the UPS:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "apt install -y nut\n"
                    "```\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/nut/ups.conf\n"
                    "[apc]\n"
                    "  driver = usbhid-ups\n"
                    "  port = auto\n"
                    '  desc = "Hall cupboard"\n'
                    "```\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/nut/upsmon.conf (the relevant lines)\n"
                    "MONITOR apc@localhost 1 upsmon-primary CHANGE-ME primary\n"
                    'SHUTDOWNCMD "/sbin/shutdown -h +0"\n'
                    "FINALDELAY 5\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "# on pve1\n"
                    "echo 'MODE=netserver' > /etc/nut/nut.conf\n"
                    "systemctl restart nut-server nut-monitor\n"
                    "upsc apc@localhost\n"
                    "```\n"
                    "\n"
                    "Set the matching user and password in `/etc/nut/upsd.users`. Proxmox shuts down the VMs "
                    "and containers cleanly as part of the host shutdown, so Home Assistant and the rest get "
                    "a proper stop."
                ),
                u(
                    "```\n"
                    "battery.charge: 100\n"
                    "battery.runtime: 2460\n"
                    "battery.voltage: 13.6\n"
                    "device.model: Back-UPS ES 700G\n"
                    "input.voltage: 236.0\n"
                    "ups.load: 9\n"
                    "ups.status: OL\n"
                    "```"
                ),
                a(
                    "All healthy: on line power (`OL`), fully charged, 9% load, and an estimated 2,460 "
                    "seconds, about 41 minutes, of runtime at the current load.\n"
                    "\n"
                    'By default NUT shuts down when the UPS reports "low battery", which on these models is '
                    "a few minutes before empty. For a cleaner margin, shut down after five minutes on "
                    "battery instead, with `upssched`:\n"
                    "\n"
                    "```ini\n"
                    "# on pve1: /etc/nut/upssched.conf\n"
                    "CMDSCRIPT /usr/local/bin/upssched-cmd\n"
                    "PIPEFN /run/nut/upssched.pipe\n"
                    "LOCKFN /run/nut/upssched.lock\n"
                    "AT ONBATT apc@localhost START-TIMER shutdown-after-5 300\n"
                    "AT ONLINE apc@localhost CANCEL-TIMER shutdown-after-5\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "#!/bin/sh\n"
                    "# on pve1: /usr/local/bin/upssched-cmd\n"
                    '[ "$1" = "shutdown-after-5" ] && /sbin/upsmon -c fsd\n'
                    "```\n"
                    "\n"
                    "The Pi can be a NUT client of pve1 too, so it shuts itself down at the same time; its "
                    "SSD will thank you.",
                    key="rc-req-upssched",
                ),
                u(
                    "Rufus has started sneaking the tablet into bed to watch YouTube. Can Pi-hole block "
                    "YouTube for his tablet only, and only at night?"
                ),
                a(
                    "Yes, with groups. Put his tablet in its own group with a YouTube blocklist, and let Home "
                    "Assistant switch that group on at bedtime and off in the morning.\n"
                    "\n"
                    'In Pi-hole: Groups → add "rufus-night"; Clients → add his tablet, assign it to that '
                    "group only; Domains → add a regex deny rule `(^|\\.)youtube\\.com$` and "
                    '`(^|\\.)googlevideo\\.com$`, assigned to "rufus-night" only. Then from Home Assistant:\n'
                    "\n"
                    "```yaml\n"
                    "# on Home Assistant (VM 120): automations.yaml\n"
                    '- alias: "Rufus: no YouTube at night"\n'
                    "  triggers:\n"
                    "    - trigger: time\n"
                    '      at: "20:00:00"\n'
                    "  actions:\n"
                    "    - action: shell_command.pihole_group\n"
                    "      data:\n"
                    "        group: rufus-night\n"
                    "        enabled: true\n"
                    "\n"
                    '- alias: "Rufus: YouTube back in the morning"\n'
                    "  triggers:\n"
                    "    - trigger: time\n"
                    '      at: "07:00:00"\n'
                    "  actions:\n"
                    "    - action: shell_command.pihole_group\n"
                    "      data:\n"
                    "        group: rufus-night\n"
                    "        enabled: false\n"
                    "```\n"
                    "\n"
                    "The `shell_command.pihole_group` follows the same log-in, call, log-out pattern as the "
                    'pause button, with a `PUT /api/groups/<name>` and `{"enabled": true}` in the middle.',
                    key="rc-req-bedtime",
                ),
                u("Lovely. Sunniva approves. Rufus does not."),
                a("That's how you know it works."),
                u("About the stale restic lock after the power cut: can the script deal with that itself?"),
                a(
                    'Yes. A lock left by a process that no longer exists is "stale", and `restic unlock` '
                    "removes only stale locks by default, never one held by a running backup. Since only this "
                    "script uses the repository, it's safe to run it at the start:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1: /usr/local/bin/nightly-backup.sh, right after `source /etc/restic/env`\n"
                    "restic unlock\n"
                    "```\n"
                    "\n"
                    "Also worth adding a weekly integrity check of a small random part of the repository, so "
                    "corruption is found early rather than on the day you need a restore:\n"
                    "\n"
                    "```bash\n"
                    "# on pve1: at the end of the script, Sundays only\n"
                    '[ "$(date +%u)" = 7 ] && restic check --read-data-subset=2%\n'
                    "```"
                ),
                u('Last thing: is there a "spring cleaning" checklist I should go through once a year or so?'),
                a(
                    "A yearly checklist for a setup like yours:\n"
                    "\n"
                    "1. **Restore test.** Restore one VM from a local dump to a new ID and boot it, and one "
                    "folder from B2. The only real proof the backups work.\n"
                    "2. **Disk health.** `smartctl -a` on every disk; watch reallocated sectors and the "
                    "power-on hours of the old 3 TB backup disk in particular.\n"
                    "3. **Passwords and keys.** Check that the restic password, the B2 key and the Pi-hole "
                    "app passwords are in the password manager and still valid.\n"
                    "4. **Updates.** Proxmox, the Pi, docker1, and the images in each compose file; read the "
                    "release notes for Immich and Home Assistant before jumping versions.\n"
                    "5. **The README.** Read it as if you'd never seen the setup. Anything you had to look up "
                    "elsewhere goes in.\n"
                    "6. **UPS battery.** Pull the plug for a minute and watch it switch over; batteries last "
                    "three to five years."
                ),
                u(
                    "Brilliant, going in my calendar for every April. This has been a great few months of "
                    'tinkering. Sunniva now calls the hall cupboard "Eamon\'s shrine".'
                ),
                a(
                    "A well-earned title. The shrine now has DNS that survives reboots, backups that are "
                    "tested, a UPS and a family that can pause the ad blocker without you. Enjoy it."
                ),
            ],
        ),
    ],
    questions=[
        Question(
            "How do I see what's eating space on the backup disk?",
            "comment naming the machine",
            ["si-machine"],
            "standing-instruction",
        ),
        Question(
            "Is it worth keeping the Minecraft server up around the clock?",
            "kWh per month",
            ["si-kwh"],
            "standing-instruction",
        ),
        Question(
            "Set up Uptime Kuma so I get a ping when something goes down.",
            "compose files",
            ["si-compose"],
            "standing-instruction",
        ),
        Question(
            "How can Sunniva's parents watch our films from their place in Bergen?",
            "not expose anything to the internet",
            ["pref-noexpose"],
            "preference",
        ),
        Question("Which used mini PC should I get as a second node?", "no loud fans", ["pref-quiet"], "preference"),
        Question(
            "What are we paying for electricity per kWh?",
            "29.5 cent",
            ["ku-price-2"],
            "knowledge-update",
            superseded=["ku-price-1"],
        ),
        Question(
            "Where does our main Pi-hole run?",
            "LXC on pve1",
            ["ku-pihole-2"],
            "knowledge-update",
            superseded=["ku-pihole-1"],
        ),
        Question(
            "What time do the nightly backups run?",
            "04:30",
            ["ku-backup-2"],
            "knowledge-update",
            superseded=["ku-backup-1"],
        ),
        Question(
            "What's our upload speed?", "500 Mbit/s", ["ku-upload-2"], "knowledge-update", superseded=["ku-upload-1"]
        ),
        Question(
            "Which services did we move off the Raspberry Pi onto Proxmox?",
            "Pi-hole; Home Assistant; UniFi controller",
            ["ku-pihole-2", "mt-moved-2", "mt-moved-3"],
            "multi-turn",
        ),
        Question(
            "What are the IP addresses of the Pi and of the Proxmox host?",
            "192.168.1.2; 192.168.1.10",
            ["mt-ip-1", "mt-ip-2"],
            "multi-turn",
        ),
        Question(
            "What caused the two times the internet 'went down' at home?",
            "blocked the school portal; SD card died",
            ["mt-outage-1", "mt-outage-2"],
            "multi-turn",
        ),
        Question("Who's our internet provider?", "Glasnet", ["mt-ip-1"], "single-fact"),
        Question("What did you say kept waking the USB drive up?", "real-time monitoring", ["sf-wake"], "single-fact"),
        Question("Which of the kids wanted a Minecraft server?", "Ada", ["sf-ada"], "single-fact"),
        Question("How many monthly snapshots does the backup prune keep?", "--keep-monthly 6", ["code-restic"], "code"),
        Question(
            "Which upstream DNS servers does Pi-hole forward to?", "9.9.9.9; 149.112.112.112", ["code-dns"], "code"
        ),
        Question("What's the B2 bucket for the backups called?", "ohara-family-backup", ["code-restic"], "code"),
        Question(
            "Can you give the powertop tuning service the same phone push the backup sends when it breaks?",
            "ntfy",
            ["rc-req-ntfy"],
            "request-context",
        ),
        Question(
            "Set up the Pi so it shuts itself down along with pve1 when the power goes.",
            "upssched",
            ["rc-req-upssched"],
            "request-context",
        ),
        Question(
            "Change Rufus's bedtime block so it kicks in at 19:30 on school nights.",
            "rufus-night",
            ["rc-req-bedtime"],
            "request-context",
        ),
    ],
)
