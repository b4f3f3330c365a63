"""A platform engineer at a mid-sized logistics company moving a handful of services from VMs in a colo
rack to Kubernetes on AWS over one quarter, with an assistant's help: Terraform modules, Helm charts and
values, a readiness probe that fails, cloud cost figures that move, an on-call rota and colleagues who
come and go, an outage and its postmortem."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

S1 = Session(
    "2025-09-08T08:15:00Z",
    [
        u(
            w(
                r"""
                Morning. I need a thinking partner for the next three months, so let me give you the whole
                picture once. I'm a platform engineer at Brannock Freight — road freight and warehousing,
                about 600 people, head office in Rotterdam, depots in Venlo, Duisburg and Antwerp. Our
                internal services run on VMware VMs in a colo rack in Almere, deployed with Ansible playbooks
                that only Ruben fully understands. The rack contract ends in March and management has decided
                we're not renewing it, so the goal for this quarter is to move the services that matter onto
                Kubernetes on AWS (EKS, eu-central-1), with Terraform for the infrastructure and Helm for the
                apps.

                The candidates:

                - route-planner — Java 17 / Spring Boot, computes the daily routes for the trucks. Tomasz owns it.
                - label-gateway — small Go service that sits between the depot label printers and the carrier APIs.
                - tracking-api — Node.js, customers and the website poll it for shipment status. Backed by Postgres.
                - invoice-sync — Python script run by cron at night, pushes invoices to the finance system.
                - depot-portal — old PHP app the depot managers use. Has a licensed PDF component that's tied to a MAC
                  address, so probably last.

                The team is small: me, Dagny (senior SRE, been here forever), Ruben (ops, the Ansible person),
                and Tomasz helps from the backend side. Marcus Verhoef is head of infrastructure and signs off
                anything that touches production. I'd like a plan first, then we do the work piece by piece.
                """
            ),
            key="pm-brief",
        ),
        a(
            w(
                r"""
                That's a good brief, and a quarter is enough for four of those five if we're disciplined about
                order. Here's how I'd run it.

                ## Phase 0 — foundations (weeks 1–2)

                - A Terraform state backend (S3 bucket + DynamoDB lock table), created once and then never touched by
                  hand.
                - A VPC with private subnets across three availability zones, NAT for egress.
                - The EKS cluster itself, one managed node group to start with, plus the add-ons you'll want from day
                  one: the AWS Load Balancer Controller, external-dns, cert-manager and the EBS CSI driver.
                - A GitLab (or whatever CI you have) pipeline that runs `terraform plan` on merge requests and `apply`
                  only from the main branch.

                ## Phase 1 — the first service (weeks 3–6)

                Pick one stateless service, write its Helm chart, run it in staging next to the VM version,
                then cut traffic over with a rollback path. The first one will take three times as long as
                the others because every decision (ingress, secrets, image build, probes, logging) gets made
                on it.

                ## Phase 2 — the rest (weeks 7–12)

                Each later service reuses the chart skeleton and the decisions. Stateful pieces (the
                Postgres behind tracking-api) go to RDS rather than into the cluster.

                ## A first pass at the order

                | Order | Service | Why here | Risk |
                |---|---|---|---|
                | 1 | route-planner | Stateless, one owner who's engaged, runs once a day in bulk | Medium: JVM memory tuning, long startup |
                | 2 | label-gateway | Small Go binary, easy to containerise | Medium: depots and carrier allow-lists see its source IP |
                | 3 | tracking-api | Customer-facing, needs autoscaling | High: traffic, database move |
                | 4 | invoice-sync | Becomes a CronJob | Low technically, high if it silently fails |
                | 5 | depot-portal | MAC-bound licence | Possibly not this quarter |

                Some people would start with invoice-sync because it's the smallest, but a nightly batch job
                teaches you nothing about ingress, probes or scaling, which are the parts you need to get
                right early.

                Two questions before we write anything. Do you already have a Terraform state backend
                somewhere, or is the AWS account empty? And what CI do you run — the pipeline design depends
                on it.
                """
            )
        ),
        u(
            "No backend. The AWS account isn't empty though: someone clicked together a sandbox VPC and a "
            "couple of S3 buckets last year. CI is a self-hosted GitLab, runners on two VMs in the same rack."
        ),
        a(
            w(
                r"""
                Then I'd leave the clicked-together bits alone and build next to them. Importing half-finished
                console resources into Terraform is a rabbit hole you don't need in week one; once the new VPC
                exists you can delete the sandbox one.

                On GitLab: the runners living in the Almere rack is itself a migration item, because in March
                they go away too. For now they can run Terraform fine as long as they have AWS credentials. I'd
                use GitLab's OIDC tokens (`id_tokens` in `.gitlab-ci.yml`) with an IAM role that trusts your
                GitLab instance, so there are no long-lived access keys sitting in CI variables. That needs
                your GitLab to be reachable from AWS at its issuer URL, which a self-hosted instance often
                isn't. If it's only on the internal network, we fall back to an access key for a dedicated
                CI user with a narrow policy, rotated every 90 days, and put the runner move on the list.
                """
            )
        ),
        u(
            "One rule before we start, and I'll be annoying about it: every time you write down a time — "
            "maintenance windows, cron schedules, incident timelines, anything — write it in UTC with a "
            "24-hour clock. We've got drivers and depots across three countries and a finance team in "
            "Rotterdam, and we have been burned by 'Tuesday 9 o'clock' meaning three different things.",
            key="pm-rule-utc",
        ),
        a(
            "Understood: every time in UTC on a 24-hour clock, written like 21:00 UTC, including cron "
            "schedules (which on Kubernetes run in the controller's time zone, UTC on EKS, unless you set "
            "`timeZone` on the CronJob, so that works in our favour)."
        ),
        u(
            "And a second one: commit messages in Conventional Commits, please — feat:, fix:, chore: and "
            "so on, with the service or module as the scope. Our changelog tooling reads them and Dagny "
            "rejects merge requests that don't follow it.",
            key="pm-rule-commits",
        ),
        a(
            w(
                r"""
                Will do. For reference, the shapes I'll use:

                ```
                feat(route-planner): add Helm chart with staging and prod values
                fix(label-gateway): raise readiness timeout to 3s
                chore(terraform): pin aws provider to ~> 5.60
                refactor(eks-module): split node groups into their own file
                docs(runbook): add rollback steps for route-planner cutover
                ```

                A breaking change gets a `!` after the scope (`feat(vpc)!: move to /16 CIDR`) and a
                `BREAKING CHANGE:` line in the body. I'll keep the subject under 72 characters and in the
                imperative.
                """
            )
        ),
        u(
            w(
                r"""
                Good. Some context on people because it'll matter. Dagny is great but she's half on the
                warehouse scanning project this quarter, so realistically she reviews rather than builds.
                Ruben knows every VM by name but he's not a Kubernetes person and I get the feeling he isn't
                thrilled about any of this. Tomasz is keen — he's been asking to containerise route-planner
                for a year.

                EKS or should we just run k3s on a few EC2 instances? Marcus asked me that yesterday and I
                didn't have a crisp answer.
                """
            )
        ),
        a(
            w(
                r"""
                Here's a crisp answer you can give Marcus: **EKS, because the control plane is the part you
                least want to own with a team of two and a half.**

                | | EKS | k3s on EC2 |
                |---|---|---|
                | Control plane cost | about $73/month per cluster, flat | Zero extra, but you pay in EC2 for the servers |
                | Who patches etcd and the API server | AWS | You |
                | Upgrades | One API call per minor version, then node groups roll | You script it, and test the script |
                | IAM for pods | IRSA / Pod Identity built in | Possible, more wiring |
                | Load balancers, EBS volumes | Official controllers, well trodden | Same controllers work, but fewer people run it that way |
                | Failure when a control-plane node dies | AWS's problem | Your 03:00 UTC page |
                | Lock-in | Moderate: manifests are portable, IAM glue isn't | Lower |

                The $73 a month is less than one hour of your time per month, which settles it for a team
                your size. k3s is a great fit for edge boxes — if the depots ever want a small cluster next to
                the label printers, that's where I'd use it.

                On Ruben: it's worth giving him something he owns in the new world rather than something
                being taken away. The obvious candidate is the runner and CI side, or the bits of Ansible that
                still have to exist (the depot printer boxes won't move to Kubernetes). People who know every
                VM by name tend to be very good at the inventory side of a migration, too: what talks to what,
                what's in which crontab. That's exactly the list you'll need before each cutover.
                """
            )
        ),
        u(
            "That table's going straight into my notes for Marcus. Let's do the Terraform foundations next "
            "time — I want to get a plan in front of Dagny by Friday."
        ),
        a(
            w(
                r"""
                Sounds good. To make that session fast, it'd help to know:

                1. The CIDR ranges in use in the colo and any office VPNs, so the new VPC doesn't overlap (you'll want a
                   site-to-site VPN or Direct Connect to Almere during the migration).
                2. Whether you want separate AWS accounts for staging and prod, or one account with two clusters.
                   Separate accounts is the better answer; one account is the faster one.
                3. The Terraform version you have locally (`terraform version`).

                Bring those and we can have the backend, VPC and cluster code written in one sitting.
                """
            )
        ),
        u(
            "Colo is 10.20.0.0/16, office VPN hands out 10.99.0.0/24. One account for now, two clusters "
            "later maybe. Terraform 1.9.5."
        ),
        a(
            w(
                r"""
                Then I'd take 10.40.0.0/16 for the new VPC — clear of both, and leaves 10.41–10.49 for a
                future prod account if you split later. With Terraform 1.9.5 we can use `removed` and
                `import` blocks if we ever need to adopt the sandbox resources, and the AWS provider 5.x
                series.

                One account with a staging namespace and a prod namespace on the same cluster is a defensible
                start for a company your size, as long as RBAC and network policies keep them apart. I'd
                revisit it once tracking-api is in, because that's the first service where a noisy staging
                test could hurt customers.
                """
            )
        ),
    ],
)

S2 = Session(
    "2025-09-11T12:30:00Z",
    [
        u(
            w(
                r"""
                Right, Terraform day. Before you write anything, a standing rule from finance: every AWS
                resource and every Kubernetes object you write for me gets two tags/labels, `team: platform`
                and `cost-centre: ops-4471`. Finance allocates the bill by cost centre and anything untagged
                lands on my budget line with a note from the controller asking why. Put them in every
                manifest and every Terraform resource that supports tags, no exceptions.
                """
            ),
            key="pm-rule-labels",
        ),
        a(
            w(
                r"""
                Got it — `team: platform` and `cost-centre: ops-4471` on everything. In Terraform the cleanest
                way is the provider's `default_tags`, so no resource can forget them; in Kubernetes they'll go
                into a shared `_helpers.tpl` label block in every chart.

                Start with the state backend. This is a tiny separate root module that you apply once with
                local state and then leave alone:

                ```hcl
                # bootstrap/main.tf
                terraform {
                  required_version = "~> 1.9.0"
                  required_providers {
                    aws = {
                      source  = "hashicorp/aws"
                      version = "~> 5.60"
                    }
                  }
                }

                provider "aws" {
                  region = "eu-central-1"
                  default_tags {
                    tags = {
                      team          = "platform"
                      "cost-centre" = "ops-4471"
                      managed-by    = "terraform"
                    }
                  }
                }

                resource "aws_s3_bucket" "state" {
                  bucket = "brannock-tfstate-euc1"

                  lifecycle {
                    prevent_destroy = true
                  }
                }

                resource "aws_s3_bucket_versioning" "state" {
                  bucket = aws_s3_bucket.state.id
                  versioning_configuration {
                    status = "Enabled"
                  }
                }

                resource "aws_s3_bucket_server_side_encryption_configuration" "state" {
                  bucket = aws_s3_bucket.state.id
                  rule {
                    apply_server_side_encryption_by_default {
                      sse_algorithm = "aws:kms"
                    }
                  }
                }

                resource "aws_s3_bucket_public_access_block" "state" {
                  bucket                  = aws_s3_bucket.state.id
                  block_public_acls       = true
                  block_public_policy     = true
                  ignore_public_acls      = true
                  restrict_public_buckets = true
                }

                resource "aws_dynamodb_table" "locks" {
                  name         = "brannock-tf-locks"
                  billing_mode = "PAY_PER_REQUEST"
                  hash_key     = "LockID"

                  attribute {
                    name = "LockID"
                    type = "S"
                  }

                  point_in_time_recovery {
                    enabled = true
                  }
                }
                ```

                And the backend block every other root module uses:

                ```hcl
                # infra/backend.tf
                terraform {
                  backend "s3" {
                    bucket         = "brannock-tfstate-euc1"
                    key            = "infra/eks/terraform.tfstate"
                    region         = "eu-central-1"
                    dynamodb_table = "brannock-tf-locks"
                    encrypt        = true
                  }
                }
                ```

                Versioning on the bucket is the part people skip and regret: it's your undo button if a
                state file ever gets corrupted. `prevent_destroy` means a stray `terraform destroy` in the
                bootstrap folder fails loudly instead of deleting every state you have.
                """
            ),
            key="pm-code-backend",
        ),
        u(
            "Looks right. I'm a Makefile person, by the way — I want a Makefile in every repo as the front "
            "door, so nobody has to remember which -var-file goes with which folder. `make plan ENV=staging` "
            "and that's it. Dagny agrees, Ruben thinks Makefiles are from the 1970s, which they are.",
            key="pm-pref-make",
        ),
        a(
            w(
                r"""
                They are, and they're still the most portable task runner on a Linux box. Here's one for the
                infra repo:

                ```make
                # Makefile — front door for the infra repo
                .RECIPEPREFIX = >
                ENV ?= staging
                TF  ?= terraform
                DIR := infra
                VARS := envs/$(ENV).tfvars

                .PHONY: help init fmt validate plan apply bootstrap

                help: ## list targets
                > @grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "%-12s %s\n", $$1, $$2}'

                init: ## terraform init against the S3 backend
                > cd $(DIR) && $(TF) init -input=false

                fmt: ## format all terraform files
                > $(TF) fmt -recursive

                validate: init ## validate syntax and references
                > cd $(DIR) && $(TF) validate

                plan: init ## plan for ENV (default staging)
                > cd $(DIR) && $(TF) plan -input=false -var-file=../$(VARS) -out=$(ENV).tfplan

                apply: ## apply the saved plan for ENV
                > cd $(DIR) && $(TF) apply -input=false $(ENV).tfplan

                bootstrap: ## one-off: create the state bucket and lock table
                > cd bootstrap && $(TF) init && $(TF) apply
                ```

                `make help` prints the targets with their comments, which is the closest thing to
                documentation most people will read. The `apply` target only applies a saved plan, so nobody
                applies something they haven't seen. `.RECIPEPREFIX = >` lets recipes start with `>` instead of
                a tab, so the file survives being pasted out of a chat or a wiki page.
                """
            )
        ),
        u("Great. Now the real thing: VPC and the cluster."),
        a(
            w(
                r"""
                I'd use the community modules for both — `terraform-aws-modules/vpc` and
                `terraform-aws-modules/eks` — rather than hand-rolling. They're what most EKS setups use and
                they encode a lot of fiddly details (subnet tags for load balancers, the aws-auth/access-entry
                dance).

                ```hcl
                # infra/main.tf
                locals {
                  name = "brannock-${var.env}"
                  azs  = ["eu-central-1a", "eu-central-1b", "eu-central-1c"]
                }

                module "vpc" {
                  source  = "terraform-aws-modules/vpc/aws"
                  version = "~> 5.13"

                  name = local.name
                  cidr = "10.40.0.0/16"
                  azs  = local.azs

                  private_subnets = ["10.40.0.0/19", "10.40.32.0/19", "10.40.64.0/19"]
                  public_subnets  = ["10.40.96.0/22", "10.40.100.0/22", "10.40.104.0/22"]

                  enable_nat_gateway     = true
                  single_nat_gateway     = var.env != "prod"
                  one_nat_gateway_per_az = var.env == "prod"

                  public_subnet_tags = {
                    "kubernetes.io/role/elb" = 1
                  }
                  private_subnet_tags = {
                    "kubernetes.io/role/internal-elb" = 1
                  }
                }

                module "eks" {
                  source  = "terraform-aws-modules/eks/aws"
                  version = "~> 20.24"

                  cluster_name    = local.name
                  cluster_version = "1.29"

                  vpc_id     = module.vpc.vpc_id
                  subnet_ids = module.vpc.private_subnets

                  cluster_endpoint_public_access       = true
                  cluster_endpoint_public_access_cidrs = var.admin_cidrs

                  enable_cluster_creator_admin_permissions = true

                  cluster_addons = {
                    coredns                = {}
                    kube-proxy             = {}
                    vpc-cni                = {}
                    aws-ebs-csi-driver     = { service_account_role_arn = module.ebs_csi_irsa.iam_role_arn }
                    eks-pod-identity-agent = {}
                  }

                  eks_managed_node_groups = {
                    general = {
                      instance_types = ["m6i.large"]
                      min_size       = 3
                      max_size       = 6
                      desired_size   = 3
                      capacity_type  = "ON_DEMAND"
                      labels = {
                        team          = "platform"
                        "cost-centre" = "ops-4471"
                      }
                    }
                  }
                }
                ```

                ```hcl
                # infra/variables.tf
                variable "env" {
                  type = string
                }

                variable "admin_cidrs" {
                  type        = list(string)
                  description = "Office and VPN egress ranges allowed to reach the API server"
                }
                ```

                ```hcl
                # envs/staging.tfvars
                env         = "staging"
                admin_cidrs = ["203.0.113.10/32"]
                ```

                Choices worth knowing about:

                - **Kubernetes 1.29** — one behind the newest EKS offers, so the add-ons and Helm charts you'll install
                  have all caught up with it. We'll upgrade in place later in the quarter.
                - **m6i.large nodes, three of them** — 2 vCPU and 8 GiB each, one per AZ. Enough for route-planner and
                  the add-ons; the node group can grow to six.
                - **One NAT gateway outside prod** — NAT is one of the sneaky costs on AWS (about $33/month each plus
                  data), so staging shares one.
                - **Public API endpoint locked to your admin CIDRs** — simpler than a bastion to start with; you can go
                  private once the VPN to Almere exists.

                Replace the `admin_cidrs` placeholder with your office egress IP.
                """
            ),
            key="pm-eks-code",
        ),
        u(
            "Marcus wants a number. What's this going to cost a month, roughly, once route-planner and "
            "the add-ons are in? Just the cluster side."
        ),
        a(
            w(
                r"""
                A rough monthly figure for eu-central-1, on-demand prices, converted at about €0.92 to the
                dollar and rounded:

                | Item | Quantity | Monthly (EUR) |
                |---|---|---|
                | EKS control plane | 1 cluster | 67 |
                | m6i.large nodes (on-demand) | 3 × 730 h | 260 |
                | EBS gp3 root volumes | 3 × 50 GB | 13 |
                | NAT gateway (staging) | 1 + ~200 GB processed | 45 |
                | NAT gateways (prod, one per AZ) | 3 + ~500 GB processed | 130 |
                | Application Load Balancers | 2 | 45 |
                | RDS Postgres for tracking-api (later) | db.m6g.large Multi-AZ | 310 |
                | CloudWatch logs and metrics | ~150 GB ingested | 110 |
                | Data transfer out | ~1 TB | 85 |
                | Headroom for growth to 6 nodes + spiky things | | 805 |
                | **Total** | | **€1,870** |

                So: **about €1,870 per month** for the cluster side once the four services are in, with
                the big unknowns being how many nodes you actually end up running and how chatty the logs are.
                The "headroom" line is honest padding — first AWS bills almost always surprise people, and
                it's better to tell Marcus €1,870 and come in under than say €1,100 and explain the
                difference.

                Do you know what the colo rack costs you today? That's the comparison he'll actually want.
                """
            ),
            key="pm-cost-est",
        ),
        u(
            "€4,100 a month for the rack, power and cross-connects. Plus VMware licences on top, which went up a "
            "lot this year."
        ),
        a(
            w(
                r"""
                Then the story for Marcus is straightforward: the rack alone costs more than twice the cloud
                estimate before you even count the VMware renewal, and the cloud figure includes headroom.
                The honest caveats to give him:

                1. For a few months you pay for both, because the rack contract runs to March.
                2. AWS costs grow with use in a way a rack doesn't — which is why we tag everything and look at the bill
                   monthly.
                3. Savings Plans or reserved instances can take 20–30% off the compute lines once usage is stable, but
                   don't buy them in month one.
                """
            )
        ),
        u(
            w(
                r"""
                Ran make bootstrap, then make plan, hit Ctrl-C halfway through the plan because I noticed the
                wrong tfvars, and now:

                ```
                Error: Error acquiring the state lock

                Error message: ConditionalCheckFailedException: The conditional request failed
                Lock Info:
                  ID:        6f1c2a9e-3b44-0c1d-9e57-1b2a8f0d4c31
                  Path:      brannock-tfstate-euc1/infra/eks/terraform.tfstate
                  Operation: OperationTypePlan
                  Who:       me@brannock-laptop
                  Version:   1.9.5
                  Created:   2025-09-11 13:02:41.337 +0000 UTC
                ```
                """
            )
        ),
        a(
            w(
                r"""
                That's the lock your interrupted plan left behind in `brannock-tf-locks`. Since you know
                nobody else is running Terraform (it's your own lock, from your laptop, a few minutes old),
                it's safe to remove:

                ```bash
                cd infra
                terraform force-unlock 6f1c2a9e-3b44-0c1d-9e57-1b2a8f0d4c31
                ```

                It asks for confirmation; answer `yes`. Two habits that avoid it next time:

                - Ctrl-C once, not twice. One interrupt lets Terraform release the lock cleanly; the second kills it
                  mid-flight.
                - Never force-unlock a lock whose `Who` isn't you without asking that person first. With a CI pipeline
                  running plans, the lock may belong to a job that's still applying.
                """
            )
        ),
        u(
            w(
                r"""
                Applied. 14 minutes for the cluster, which felt like forever.

                ```
                NAME                                           STATUS   ROLES    AGE   VERSION
                ip-10-40-12-87.eu-central-1.compute.internal   Ready    <none>   3m    v1.29.8-eks-a737599
                ip-10-40-45-3.eu-central-1.compute.internal    Ready    <none>   3m    v1.29.8-eks-a737599
                ip-10-40-77-140.eu-central-1.compute.internal  Ready    <none>   3m    v1.29.8-eks-a737599
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Three nodes, three AZs, all Ready — that's a cluster. 10–15 minutes for the control plane is
                normal for EKS; you'll rarely recreate it.

                Next steps, in the order I'd do them:

                1. **AWS Load Balancer Controller** via Helm with an IAM role (Pod Identity), so Ingress objects become
                   ALBs.
                2. **external-dns**, limited to one Route 53 hosted zone (e.g. `k8s.brannock.nl`), so ingress hostnames
                   get DNS records automatically.
                3. **cert-manager** with a Let's Encrypt ClusterIssuer using DNS-01 on Route 53, or ACM certificates on
                   the ALB — ACM is simpler if everything goes through ALBs.
                4. **metrics-server**, because the HPA for tracking-api will need it.
                5. Namespaces `staging` and `prod` with resource quotas.

                I'd put all five into a `platform` Helmfile or a Terraform `helm_release` set in the same repo
                so they're reproducible. When you're ready, bring route-planner's current VM setup (JVM flags,
                config files, how it's started) and we'll write its chart.
                """
            )
        ),
    ],
)

S3 = Session(
    "2025-09-17T09:40:00Z",
    [
        u(
            w(
                r"""
                Add-ons are in (LB controller, external-dns on k8s.brannock.nl, cert-manager, metrics-server).
                Now route-planner. Tomasz sent me how it runs on the VMs today:

                ```ini
                # /etc/systemd/system/route-planner.service
                [Unit]
                Description=Brannock route planner
                After=network-online.target

                [Service]
                User=routeplanner
                WorkingDirectory=/opt/route-planner
                ExecStart=/usr/bin/java -Xms3g -Xmx3g -XX:+UseG1GC \
                  -Dspring.profiles.active=vm \
                  -jar /opt/route-planner/route-planner.jar
                Restart=on-failure

                [Install]
                WantedBy=multi-user.target
                ```

                ```properties
                # application-vm.properties
                server.port=8080
                management.server.port=8081
                management.server.address=127.0.0.1
                management.endpoints.web.exposure.include=health,info,prometheus
                routeplanner.graph.path=/opt/route-planner/graph/nl-be-de.graph
                spring.datasource.url=jdbc:postgresql://10.20.4.11:5432/routes
                ```

                Three VMs (4 vCPU, 8 GB each) behind HAProxy. The big batch runs at 03:30 UTC and plans the
                next day's routes for all depots; during the day the dispatchers hit it for re-plans when a
                truck breaks down or an order comes in late.
                """
            )
        ),
        a(
            w(
                r"""
                Useful — a few things jump out that shape the chart:

                - **Heap is fixed at 3 GB on an 8 GB VM.** In a container we should size the heap from the container's
                  memory limit instead (`-XX:MaxRAMPercentage`), so the pod and the JVM agree about how much memory
                  exists.
                - **Two ports**: 8080 for the API, 8081 for actuator. Probes should hit actuator on 8081, and Prometheus
                  can scrape `/actuator/prometheus` there too.
                - **The road graph lives on local disk.** That's the one part that doesn't map onto a container cleanly;
                  we'll need to decide where it comes from.
                - **The database is in the colo** (10.20.4.11). Until the VPN from the VPC to Almere exists, pods can't
                  reach it. Worth chasing now because it'll be the long pole.

                For the probes I need one more thing: how long does route-planner take from `java -jar` to
                actually answering requests on the VMs? That decides whether we need a startup probe and how
                generous it is.
                """
            )
        ),
        u("About 40 seconds on the VM, Tomasz says. Most of it is loading the graph.", key="pm-start-40"),
        a(
            w(
                r"""
                Forty seconds is long enough that a plain liveness probe with default settings would kill the
                pod before it ever came up. The pattern for slow starters:

                - a **startupProbe** that allows a generous window (e.g. `failureThreshold: 30` × `periodSeconds: 5` =
                  150 s), during which liveness and readiness are held off;
                - a **readinessProbe** on `/actuator/health/readiness` that decides whether the pod gets traffic;
                - a **livenessProbe** on `/actuator/health/liveness` that only restarts the pod if the JVM is truly
                  wedged.

                Spring Boot exposes the readiness and liveness groups automatically when it detects it's
                running on Kubernetes (or when `management.endpoint.health.probes.enabled=true`), so Tomasz
                shouldn't need code changes.

                The Dockerfile I'd use — a JRE-only base, non-root user, container-aware JVM flags:

                ```dockerfile
                FROM eclipse-temurin:17-jre-jammy
                RUN useradd --system --uid 10001 routeplanner
                WORKDIR /app
                COPY target/route-planner.jar /app/route-planner.jar
                USER 10001
                EXPOSE 8080 8081
                ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75.0", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError", \
                            "-Dspring.profiles.active=k8s", "-jar", "/app/route-planner.jar"]
                ```

                `ExitOnOutOfMemoryError` matters: without it a JVM can limp along half-dead after an OOM and
                the probes might not notice for a while.
                """
            )
        ),
        u(
            "Before you write the chart: Dagny suggested Kustomize with base and overlays. I can't stand "
            "Kustomize overlays — every time I've used them I end up diffing three folders to find out what "
            "prod actually gets. I want one chart with a values file per environment, values-staging.yaml and "
            "values-prod.yaml, and that's the pattern for every service.",
            key="pm-pref-values",
        ),
        a(
            w(
                r"""
                One chart, a values file per environment — that's how I'll lay out every service. Here's
                route-planner's chart in full.

                ```yaml
                # charts/route-planner/Chart.yaml
                apiVersion: v2
                name: route-planner
                description: Daily and on-demand truck route planning
                type: application
                version: 0.1.0
                appVersion: "2025.09"
                ```

                ```yaml
                # charts/route-planner/templates/_helpers.tpl
                {{- define "route-planner.labels" -}}
                app.kubernetes.io/name: route-planner
                app.kubernetes.io/instance: {{ .Release.Name }}
                app.kubernetes.io/version: {{ .Values.image.tag | quote }}
                team: platform
                cost-centre: ops-4471
                {{- end }}

                {{- define "route-planner.selector" -}}
                app.kubernetes.io/name: route-planner
                app.kubernetes.io/instance: {{ .Release.Name }}
                {{- end }}
                ```

                ```yaml
                # charts/route-planner/templates/deployment.yaml
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: route-planner
                  labels:
                    {{- include "route-planner.labels" . | nindent 4 }}
                spec:
                  replicas: {{ .Values.replicas }}
                  selector:
                    matchLabels:
                      {{- include "route-planner.selector" . | nindent 6 }}
                  template:
                    metadata:
                      labels:
                        {{- include "route-planner.labels" . | nindent 8 }}
                    spec:
                      serviceAccountName: route-planner
                      containers:
                        - name: route-planner
                          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
                          ports:
                            - name: http
                              containerPort: 8080
                            - name: management
                              containerPort: 8081
                          env:
                            - name: SPRING_DATASOURCE_URL
                              value: {{ .Values.database.url | quote }}
                            - name: SPRING_DATASOURCE_PASSWORD
                              valueFrom:
                                secretKeyRef:
                                  name: route-planner-db
                                  key: password
                          resources:
                            requests:
                              cpu: {{ .Values.resources.cpu }}
                              memory: {{ .Values.resources.memory }}
                            limits:
                              memory: {{ .Values.resources.memory }}
                          startupProbe:
                            httpGet:
                              path: /actuator/health/liveness
                              port: management
                            periodSeconds: 5
                            failureThreshold: 30
                          readinessProbe:
                            httpGet:
                              path: /actuator/health/readiness
                              port: management
                            periodSeconds: 10
                            timeoutSeconds: 2
                            failureThreshold: 3
                          livenessProbe:
                            httpGet:
                              path: /actuator/health/liveness
                              port: management
                            periodSeconds: 20
                            timeoutSeconds: 2
                            failureThreshold: 3
                ```

                ```yaml
                # charts/route-planner/templates/service.yaml
                apiVersion: v1
                kind: Service
                metadata:
                  name: route-planner
                  labels:
                    {{- include "route-planner.labels" . | nindent 4 }}
                spec:
                  selector:
                    {{- include "route-planner.selector" . | nindent 4 }}
                  ports:
                    - name: http
                      port: 80
                      targetPort: http
                ```

                ```yaml
                # charts/route-planner/values.yaml — defaults shared by every environment
                replicas: 2
                image:
                  repository: 123456789012.dkr.ecr.eu-central-1.amazonaws.com/route-planner
                  tag: ""   # set by CI
                resources:
                  cpu: "1"
                  memory: 4Gi
                database:
                  url: ""
                ```

                ```yaml
                # charts/route-planner/values-staging.yaml
                replicas: 1
                resources:
                  cpu: 500m
                  memory: 3Gi
                database:
                  url: jdbc:postgresql://10.20.4.12:5432/routes_staging
                ```

                ```yaml
                # charts/route-planner/values-prod.yaml
                replicas: 3
                database:
                  url: jdbc:postgresql://10.20.4.11:5432/routes
                ```

                Installing is then one line per environment:

                ```bash
                helm upgrade --install route-planner charts/route-planner \
                  --namespace staging \
                  --values charts/route-planner/values-staging.yaml \
                  --set image.tag="$CI_COMMIT_SHORT_SHA"
                ```

                Memory request equals limit on purpose: for a JVM you want guaranteed memory, and with
                `MaxRAMPercentage=75` a 4 GiB limit gives a 3 GiB heap — the same as the VMs today. CPU has a
                request but no limit, so the 03:30 UTC batch can burst without being throttled.
                """
            ),
            key="pm-chart-rp",
        ),
        u(
            "Next rule, and this one is non-negotiable: never the `latest` tag, anywhere. Not in a chart "
            "default, not in an example, not 'just for staging'. Every image is pinned to the git commit SHA "
            "it was built from. We had a Friday in 2023 I don't want to talk about.",
            key="pm-rule-tags",
        ),
        a(
            w(
                r"""
                Agreed, and the chart above already leaves `tag` empty so a missing tag fails the render
                instead of falling back. To make that explicit, change the image line to use `required`:

                ```yaml
                image: "{{ .Values.image.repository }}:{{ required "image.tag must be set to a commit SHA" .Values.image.tag }}"
                ```

                The GitLab side — build, push to ECR tagged with the commit SHA, deploy to staging on main:

                ```yaml
                # .gitlab-ci.yml (route-planner repo)
                stages: [build, image, deploy]

                variables:
                  ECR: 123456789012.dkr.ecr.eu-central-1.amazonaws.com
                  IMAGE: $ECR/route-planner

                build:
                  stage: build
                  image: maven:3.9-eclipse-temurin-17
                  script:
                    - mvn --batch-mode --no-transfer-progress package -DskipTests=false
                  artifacts:
                    paths: [target/route-planner.jar]

                image:
                  stage: image
                  image: gcr.io/kaniko-project/executor:v1.23.2-debug
                  script:
                    - /kaniko/executor
                      --context "$CI_PROJECT_DIR"
                      --dockerfile "$CI_PROJECT_DIR/Dockerfile"
                      --destination "$IMAGE:$CI_COMMIT_SHORT_SHA"

                deploy-staging:
                  stage: deploy
                  image: alpine/helm:3.15.4
                  rules:
                    - if: $CI_COMMIT_BRANCH == "main"
                  script:
                    - helm upgrade --install route-planner charts/route-planner
                      --namespace staging
                      --values charts/route-planner/values-staging.yaml
                      --set image.tag="$CI_COMMIT_SHORT_SHA"
                      --wait --timeout 10m
                ```

                I'd also switch the ECR repository to immutable tags (`image_tag_mutability = "IMMUTABLE"` in
                Terraform), so a SHA can never be overwritten with different contents. That's the registry
                enforcing your rule for you.
                """
            )
        ),
        u(
            "The graph. It's 2.1 GB, rebuilt weekly from OpenStreetMap extracts by a job on one of the VMs. "
            "Where should it live now? Baking it into the image feels wrong."
        ),
        a(
            w(
                r"""
                It is wrong — a 2.1 GB layer that changes weekly makes every image push slow and every node
                pull slower. The realistic options:

                | Option | Startup cost | Complexity | Notes |
                |---|---|---|---|
                | Bake into image | Pull time on each new node | Low | Couples app releases to graph releases |
                | PersistentVolume (EBS) | None after first mount | Medium | EBS is single-AZ and ReadWriteOnce; 3 replicas need 3 volumes |
                | EFS shared volume | Slow reads of a 2 GB file | Medium | Read performance for one large file is mediocre |
                | Download from S3 at start (initContainer → emptyDir) | Download time every start | Low | Simple, stateless, new graph = restart |

                I'd pick S3 plus an init container for now. The weekly job uploads the graph to
                `s3://brannock-route-graphs/nl-be-de/<date>.graph` and updates a `current` pointer; the init
                container copies it into an `emptyDir` the main container mounts at the same path the app
                already expects. The cost is startup time: pulling 2.1 GB from S3 inside the region takes
                roughly 20–40 seconds on an m6i.large, so expect the pod to take noticeably longer than your
                40 seconds on the VM. The startup probe's 150-second window should still cover it, but we'll
                see.
                """
            )
        ),
        u(
            "S3 it is. Tomasz is moving the weekly job. He's also asked whether he can have his own namespace "
            "to play in, which I said yes to, as long as it has a quota. Next time I'll have it running in "
            "staging, hopefully."
        ),
        a(
            w(
                r"""
                A sandbox namespace with a quota is a good trade — it keeps the experiments out of `staging`.
                Something like:

                ```yaml
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: sandbox-tomasz
                  labels:
                    team: platform
                    cost-centre: ops-4471
                ---
                apiVersion: v1
                kind: ResourceQuota
                metadata:
                  name: sandbox-quota
                  namespace: sandbox-tomasz
                  labels:
                    team: platform
                    cost-centre: ops-4471
                spec:
                  hard:
                    requests.cpu: "2"
                    requests.memory: 8Gi
                    limits.memory: 8Gi
                    pods: "10"
                    services.loadbalancers: "0"
                ```

                `services.loadbalancers: "0"` stops anyone from creating a Service of type LoadBalancer there
                by accident — each one is a billed NLB. Good luck with staging; bring the errors if there are
                any.
                """
            )
        ),
    ],
)

S4 = Session(
    "2025-09-24T13:05:00Z",
    [
        u(
            w(
                r"""
                It's in staging and it's not happy. Image builds, pod starts, then nothing gets traffic. I took
                the startup and liveness probes out for now so it stops restarting, and it just sits at 0/1:

                ```
                $ kubectl describe pod route-planner-7c9d8f6b5-x2kqp -n staging
                ...
                Containers:
                  route-planner:
                    State:          Running
                      Started:      Wed, 24 Sep 2025 12:41:09 +0000
                    Ready:          False
                    Restart Count:  0
                    Readiness:      http-get http://:management/actuator/health/readiness delay=0s timeout=2s period=10s #success=1 #failure=3
                Events:
                  Type     Reason     Age                  From     Message
                  ----     ------     ----                 ----     -------
                  Normal   Pulled     6m                   kubelet  Container image "123456789012.dkr.ecr.eu-central-1.amazonaws.com/route-planner:4e1a9c2" already present on machine
                  Normal   Started    6m                   kubelet  Started container route-planner
                  Warning  Unhealthy  61s (x34 over 6m)    kubelet  Readiness probe failed: Get "http://10.40.33.12:8081/actuator/health/readiness": dial tcp 10.40.33.12:8081: connect: connection refused
                ```

                The app log says it started fine: "Started RoutePlannerApplication in 47.3 seconds". And if I
                exec into the pod and curl localhost:8081 it answers. So the app is up but the probe can't
                reach it?
                """
            )
        ),
        a(
            w(
                r"""
                That combination — curl to `localhost:8081` works from inside the pod, the kubelet gets
                *connection refused* on the pod IP — almost always means the port is bound to the loopback
                interface only. And it is: the `application-vm.properties` you pasted last week has

                ```properties
                management.server.address=127.0.0.1
                ```

                I should have caught that when we wrote the chart. On the VM it was a sensible hardening step
                (actuator only reachable from the box itself, HAProxy only saw 8080). In a pod, the kubelet
                probes from the node, over the pod IP, so a socket on 127.0.0.1 is invisible to it.

                The fix belongs in a Kubernetes-specific profile, since the image runs with
                `spring.profiles.active=k8s`:

                ```properties
                # src/main/resources/application-k8s.properties
                server.port=8080
                management.server.port=8081
                management.server.address=0.0.0.0
                management.endpoints.web.exposure.include=health,info,prometheus
                management.endpoint.health.probes.enabled=true
                management.endpoint.health.group.readiness.include=readinessState,db
                routeplanner.graph.path=/data/graph/nl-be-de.graph
                ```

                Two notes on that file:

                - `probes.enabled=true` makes the `/liveness` and `/readiness` groups exist even if Spring's Kubernetes
                  detection doesn't kick in.
                - I've added `db` to the readiness group on purpose: if the pod can't reach Postgres it shouldn't get
                  traffic. Deliberately *not* to liveness — a database outage must not make Kubernetes restart every pod
                  in a loop.

                Check whether the `vm` profile file is also being picked up in the image (if Tomasz's build
                copies it in and something sets both profiles, the later one wins for each key).

                To confirm the diagnosis before rebuilding:

                ```bash
                kubectl exec -n staging route-planner-7c9d8f6b5-x2kqp -- ss -ltnp
                ```

                You should see `127.0.0.1:8081` and `*:8080`.
                """
            )
        ),
        u(
            "It's 127.0.0.1:8081, you're right. One more rule while I think of it: when you give me shell "
            "commands, write the long flags — --namespace, not -n; --output, not -o; --selector, not -l. "
            "Half of what you give me gets pasted into runbooks that Ruben and whoever we hire next will "
            "read, and nobody remembers what -A or -c mean at 3am.",
            key="pm-rule-longflags",
        ),
        a(
            w(
                r"""
                Long flags from here on. The same check, and the ones you'll want after the rebuild:

                ```bash
                kubectl exec --namespace staging route-planner-7c9d8f6b5-x2kqp -- ss -ltnp

                # after rebuilding and redeploying
                kubectl rollout status deployment/route-planner --namespace staging --timeout=5m
                kubectl get pods --namespace staging --selector app.kubernetes.io/name=route-planner --watch
                kubectl port-forward --namespace staging deployment/route-planner 8081:8081
                curl --silent http://localhost:8081/actuator/health/readiness
                ```

                (`ss` doesn't have long forms for `-ltnp`; those are the one exception I'll leave as they
                are, since `ss --listening --tcp --numeric --processes` is rarely written that way. Tell me if
                you'd rather have it spelled out.)

                Then put the startup and liveness probes back — they weren't the problem.
                """
            )
        ),
        u(
            w(
                r"""
                Spelled out is fine, consistency wins. Rebuilt, probes back, it goes Ready now. But: the
                startup probe killed it twice before it made it once. Start to Ready is 95 seconds here —
                the S3 download of the graph is about 35 seconds and then the load is slower than on the VM.
                So we blew through the 150 s window when the node was also pulling the image.
                """
            ),
            key="pm-start-95",
        ),
        a(
            w(
                r"""
                95 seconds to Ready plus an image pull on a fresh node is right at the edge of a 150-second
                startup window, so the probe was doing exactly what it was told. Three things, in order of
                effort:

                1. **Widen the startup window.** `failureThreshold: 48` with `periodSeconds: 5` gives 240 s. The startup
                   probe only runs until it first succeeds, so a generous window costs nothing in steady state.
                2. **Slower load than the VM** is likely CPU: the VM had 4 dedicated vCPUs, the pod requests 500m in
                   staging. Graph loading is CPU-bound and single-threaded parts get throttled hard at half a core. Give
                   staging `cpu: "1"` like prod.
                3. **Faster download.** `aws s3 cp` uses multiple parallel parts by default, but the default part size
                   on a 2.1 GB object is worth raising:

                ```bash
                aws configure set default.s3.multipart_chunksize 64MB
                aws configure set default.s3.max_concurrent_requests 20
                ```

                in the init container before the copy.

                The probe block as it should stand now:

                ```yaml
                startupProbe:
                  httpGet:
                    path: /actuator/health/liveness
                    port: management
                  periodSeconds: 5
                  failureThreshold: 48
                ```

                I'd leave readiness and liveness as they were. And spelled-out `ss` from now on:
                `ss --listening --tcp --numeric --processes`.
                """
            )
        ),
        u(
            "Done, and it's stable. Dagny asked what happens to route-planner when AWS rolls the nodes for "
            "an AMI update — does it just lose all pods at once?"
        ),
        a(
            w(
                r"""
                Not all at once — managed node group updates drain nodes one at a time by default — but
                without a PodDisruptionBudget nothing stops the drain from evicting two of your three replicas
                in quick succession, especially if they happen to sit on the same node. And with a 95-second
                startup, a replacement pod isn't serving for a while after it's scheduled.

                Two pieces. First, a PDB, so voluntary evictions (drains, upgrades, the cluster autoscaler)
                always leave enough pods serving:

                ```yaml
                # charts/route-planner/templates/pdb.yaml
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata:
                  name: route-planner
                  labels:
                    {{- include "route-planner.labels" . | nindent 4 }}
                spec:
                  minAvailable: {{ .Values.pdb.minAvailable }}
                  selector:
                    matchLabels:
                      {{- include "route-planner.selector" . | nindent 6 }}
                ```

                ```yaml
                # values-prod.yaml (addition)
                pdb:
                  minAvailable: 2
                ```

                ```yaml
                # values-staging.yaml (addition)
                pdb:
                  minAvailable: 0
                ```

                With three replicas in prod and `minAvailable: 2`, a drain may evict one pod, then has to wait
                until its replacement is Ready (those 95 seconds) before it may evict the next. In staging with
                one replica, `minAvailable: 0` — otherwise a single-replica PDB blocks node drains forever,
                which is the classic way to make a node group upgrade hang.

                Second, spread the replicas across zones so a single node or AZ never holds two of them:

                ```yaml
                # in the pod spec of deployment.yaml
                topologySpreadConstraints:
                  - maxSkew: 1
                    topologyKey: topology.kubernetes.io/zone
                    whenUnsatisfiable: ScheduleAnyway
                    labelSelector:
                      matchLabels:
                        {{- include "route-planner.selector" . | nindent 10 }}
                ```

                `ScheduleAnyway` rather than `DoNotSchedule` so a zone outage doesn't leave pods Pending.
                """
            ),
            key="pm-pdb-rp",
        ),
        u(
            "Perfect. I'm off on Friday, by the way — taking my son to the Spoorwegmuseum in Utrecht, he's "
            "six and completely obsessed with trains. A bit embarrassing for a family that lives off trucks.",
            key="pm-museum",
        ),
        a(
            "Enjoy it — six is exactly the age for that place. Before you go, it'd be worth making sure Dagny "
            "knows how to roll back route-planner in staging if Tomasz breaks something: "
            "`helm rollback route-planner --namespace staging` goes to the previous revision, and "
            "`helm history route-planner --namespace staging` shows which one that is."
        ),
        u(
            w(
                r"""
                Last thing for today. Even with the probes fixed, anything that touches the database fails:

                ```
                2025-09-24T13:52:18.044Z WARN  HikariPool-1 - Connection is not available, request timed out after 30000ms.
                2025-09-24T13:52:18.046Z ERROR o.s.b.SpringApplication - Application run failed
                org.postgresql.util.PSQLException: The connection attempt failed.
                Caused by: java.net.SocketTimeoutException: Connect timed out
                ```

                Which is the VPN we don't have yet. Can we do the AWS side in Terraform? The colo firewall
                is a FortiGate, Ruben manages it.
                """
            )
        ),
        a(
            w(
                r"""
                Yes — a site-to-site VPN is four resources on the AWS side. Readiness correctly keeps the pod
                out of rotation here, which is the `db` group doing its job.

                ```hcl
                # infra/vpn.tf
                variable "colo_public_ip" {
                  type        = string
                  description = "Public IP of the FortiGate in Almere"
                }

                resource "aws_vpn_gateway" "colo" {
                  vpc_id = module.vpc.vpc_id
                  tags = {
                    Name = "${local.name}-colo"
                  }
                }

                resource "aws_customer_gateway" "almere" {
                  bgp_asn    = 65010
                  ip_address = var.colo_public_ip
                  type       = "ipsec.1"
                  tags = {
                    Name = "almere-fortigate"
                  }
                }

                resource "aws_vpn_connection" "almere" {
                  vpn_gateway_id      = aws_vpn_gateway.colo.id
                  customer_gateway_id = aws_customer_gateway.almere.id
                  type                = "ipsec.1"
                  static_routes_only  = true
                  tags = {
                    Name = "almere"
                  }
                }

                resource "aws_vpn_connection_route" "colo" {
                  vpn_connection_id      = aws_vpn_connection.almere.id
                  destination_cidr_block = "10.20.0.0/16"
                }

                resource "aws_vpn_gateway_route_propagation" "private" {
                  count          = length(module.vpc.private_route_table_ids)
                  vpn_gateway_id = aws_vpn_gateway.colo.id
                  route_table_id = module.vpc.private_route_table_ids[count.index]
                }

                output "vpn_tunnel_addresses" {
                  value = [
                    aws_vpn_connection.almere.tunnel1_address,
                    aws_vpn_connection.almere.tunnel2_address,
                  ]
                }
                ```

                The `default_tags` from the provider add `team` and `cost-centre` to all of these. After
                apply, download the configuration for Fortinet from the VPN connection in the console
                ("Download configuration", vendor Fortinet, your FortiOS version) and give it to Ruben — it
                contains both tunnels' pre-shared keys and the phase 1/phase 2 settings. He'll need to:

                - allow 10.40.0.0/16 in the FortiGate policy towards the Postgres VLAN;
                - add a static route for 10.40.0.0/16 over the tunnel interfaces;
                - check that `pg_hba.conf` on the database hosts accepts connections from 10.40.0.0/16.

                That last one is the one people forget, and the error looks exactly like a firewall problem.
                This is a nice piece for Ruben to own end to end, by the way.
                """
            )
        ),
        u("Sent it to him. He actually seemed pleased to be asked."),
        a(
            "That's a good sign. Once he has both tunnels up, `kubectl run` a throwaway pod with "
            "`postgres:16` and `psql --host 10.20.4.12 --username routes_staging` to test from inside the "
            "cluster before blaming the app."
        ),
    ],
)

S5 = Session(
    "2025-10-02T08:50:00Z",
    [
        u(
            w(
                r"""
                Good news and people news. The VPN is up — Ruben had both tunnels established in an afternoon
                and route-planner in staging talks to the staging database. Tomasz ran the full nightly batch
                against it yesterday and the routes match the VM output exactly.

                People: we have a new platform engineer starting Monday 2025-10-06, Priya Raman. She comes
                from the platform team at an e-commerce company in Eindhoven, knows Kubernetes better than I
                do, which is fine by me. And Ruben handed in his notice — last day 2025-10-31. He's going to
                a shipping insurer in Antwerp, closer to home for him. I'm a bit gutted; he was just starting
                to enjoy the VPN work.
                """
            ),
            key="pm-people-oct",
        ),
        a(
            w(
                r"""
                Congratulations on the staging batch — identical output is the best test you could have
                asked for.

                On the people side, two things deserve a plan rather than hope.

                **Getting four weeks of Ruben written down.** The knowledge that walks out the door is rarely
                the playbooks themselves; it's the undocumented bits around them. I'd book three one-hour
                sessions with him and go through, per VM:

                - every crontab (`crontab -l` for each user, plus `/etc/cron.d`);
                - every firewall rule on the FortiGate that references a service, and why it exists;
                - anything that "just needs restarting sometimes", and how he knows;
                - credentials and certificates: where they are, when they expire, who issued them;
                - the VPN: who to call at the colo, how to re-key.

                Record them if he's comfortable with that; a transcript is searchable later.

                **Priya's first two weeks.** Give her something real but bounded. A good first task is
                reviewing what we've built so far with fresh eyes (the Terraform, the route-planner chart)
                and writing down what confuses her — that's free documentation. A good second task is owning
                one of the later migrations from the start, maybe label-gateway, with you reviewing.
                """
            )
        ),
        u(
            w(
                r"""
                Both good. Now the route-planner cutover. We've pencilled in 2025-10-14. The dispatcher app
                and the nightly batch trigger reach it as route-planner.brannock.local, which points at the
                HAProxy VIP in Almere. I'd like a proper runbook, something Marcus can sign off and that
                somebody other than me could run.
                """
            )
        ),
        a(
            "Happy to. One thing decides how the switch works: what's the TTL on that record, and which DNS "
            "server holds brannock.local?"
        ),
        u("Windows DNS on the domain controllers. TTL is 3600, I checked."),
        a(
            w(
                r"""
                An hour is too long to roll back through, so the first step happens days ahead: drop the TTL.
                Here's the runbook.

                # Runbook: route-planner cutover to EKS

                **Date:** 2025-10-14, window 21:00–23:00 UTC (no dispatching, well clear of the 03:30 UTC batch)
                **Owner:** platform on-call | **Approver:** Marcus Verhoef | **App contact:** Tomasz

                ## T−7 days (2025-10-07)

                1. Lower the TTL of `route-planner.brannock.local` from 3600 to 60 on the domain controllers.
                2. Confirm prod release in `prod` namespace: 3 replicas Ready, PDB `minAvailable: 2`, image pinned to
                   the release SHA.
                3. Create the internal ALB for prod route-planner and note its DNS name and IPs.

                ## T−1 day (2025-10-13)

                4. Run the nightly batch against the EKS prod deployment in dry-run mode; diff against the VM output.
                   Go/no-go decision by 16:00 UTC.
                5. Tell the dispatch leads: window 21:00–23:00 UTC, re-plans unavailable for up to 5 minutes.

                ## Cutover (2025-10-14)

                | Time (UTC) | Step | Check |
                |---|---|---|
                | 20:45 | Join the bridge call; on-call, Tomasz, one dispatcher lead | Everyone present |
                | 21:00 | Freeze deploys to route-planner (both VM and EKS) | — |
                | 21:05 | Point `route-planner.brannock.local` to the internal ALB (CNAME or A records) | `nslookup` from a dispatcher PC |
                | 21:10 | Watch ALB target health and 5xx rate | 0 unhealthy targets, 5xx < 1% |
                | 21:20 | Dispatcher lead runs three test re-plans in the dispatcher app | Routes returned in < 10 s |
                | 21:30 | Trigger a manual batch for one depot (Venlo) | Output matches VM dry run |
                | 22:00 | Stop route-planner on the three VMs (`systemctl stop`, not disable) | HAProxy shows all backends down |
                | 22:30 | Go / no-go on leaving it in place overnight | Written in the channel |

                ## Rollback (any time until 2025-10-17)

                1. Point `route-planner.brannock.local` back to the HAProxy VIP.
                2. `systemctl start route-planner` on the three VMs; wait for HAProxy to show them up (about a minute
                   each).
                3. Scale the EKS deployment to 0 only after the VMs serve, so nothing is ever without a backend.
                4. Rollback takes under 5 minutes because the TTL is 60 s. The VMs stay installed until 2025-10-17.

                ## After

                - Restore the TTL to 3600 on 2025-10-17 if no rollback.
                - The 03:30 UTC batch on 2025-10-15 is the real test: on-call checks it finished by 04:30 UTC.
                - Remove the VMs from HAProxy and power them off one week later.

                The most important line is step 3 of the rollback: never scale the new thing down before the
                old thing is proven back up.
                """
            ),
            key="pm-runbook",
        ),
        u(
            w(
                r"""
                That's exactly the level of detail Marcus likes. On-call: at the moment it's a weekly rota,
                me, Dagny and Ruben, handover Mondays at 09:00 UTC. We use Opsgenie. Priya joins it after her
                first month, Ruben drops off when he leaves. Can you give me the Opsgenie schedule as
                Terraform, so the rota is in git like everything else?
                """
            ),
            key="pm-oncall-mon",
        ),
        a(
            w(
                r"""
                Sure — the Opsgenie provider handles schedules and rotations. Users have to exist in Opsgenie
                already; Terraform just looks them up.

                ```hcl
                # oncall/main.tf
                terraform {
                  required_providers {
                    opsgenie = {
                      source  = "opsgenie/opsgenie"
                      version = "~> 0.6"
                    }
                  }
                  backend "s3" {
                    bucket         = "brannock-tfstate-euc1"
                    key            = "oncall/terraform.tfstate"
                    region         = "eu-central-1"
                    dynamodb_table = "brannock-tf-locks"
                  }
                }

                variable "rota" {
                  type        = list(string)
                  description = "Opsgenie usernames in rotation order"
                }

                data "opsgenie_user" "rota" {
                  for_each = toset(var.rota)
                  username = each.value
                }

                resource "opsgenie_team" "platform" {
                  name        = "platform"
                  description = "Platform team, cost-centre ops-4471"
                }

                resource "opsgenie_schedule" "platform" {
                  name          = "platform-primary"
                  timezone      = "Etc/UTC"
                  owner_team_id = opsgenie_team.platform.id
                  enabled       = true
                }

                resource "opsgenie_schedule_rotation" "weekly" {
                  schedule_id = opsgenie_schedule.platform.id
                  name        = "weekly"
                  start_date  = "2025-10-06T09:00:00Z"
                  type        = "weekly"
                  length      = 1

                  dynamic "participant" {
                    for_each = var.rota
                    content {
                      type = "user"
                      id   = data.opsgenie_user.rota[participant.value].id
                    }
                  }
                }
                ```

                ```hcl
                # oncall/terraform.tfvars
                rota = [
                  "you@brannock.nl",
                  "dagny@brannock.nl",
                  "ruben@brannock.nl",
                ]
                ```

                `start_date` on a Monday at 09:00 UTC makes every handover Monday 09:00 UTC. Adding Priya or
                removing Ruben is then a one-line merge request to the tfvars, reviewed like any other
                change — which also gives you a history of who was on the rota when, handy for postmortems.
                One caveat: reordering the list shifts whose week it is, so append, don't insert.
                """
            )
        ),
        u(
            w(
                r"""
                Ruben's first brain dump: every crontab on the VMs. Anything here we need to care about?

                ```
                # vm-rp-01..03 (route-planner)
                30 3 * * *  routeplanner  /opt/route-planner/bin/nightly-batch.sh
                0 1 * * 0   routeplanner  /opt/route-planner/bin/build-graph.sh    # only on vm-rp-01

                # vm-lbl-01 (label-gateway)
                */10 * * * * labels  /opt/label-gateway/cleanup_labels.sh
                0 4 * * *    root    /usr/local/bin/renew-carrier-cert.sh

                # vm-trk-01..02 (tracking-api)
                5 * * * *    node    /opt/tracking/bin/purge-expired-tokens.js

                # vm-inv-01 (invoice-sync)
                15 2 * * *   finance /opt/invoice-sync/run.sh >> /var/log/invoice-sync.log 2>&1
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Yes, three of these will bite if nobody moves them:

                | VM | Job | When (UTC) | What happens after the migration |
                |---|---|---|---|
                | vm-rp-* | nightly-batch.sh | 03:30 daily | Must move to a CronJob (or the trigger in another system) before the VMs stop; otherwise no routes |
                | vm-rp-01 | build-graph.sh | 01:00 Sundays | Tomasz is already moving it to upload to S3 |
                | vm-lbl-01 | cleanup_labels.sh | every 10 min | Unknown purpose — ask Ruben what it deletes |
                | vm-lbl-01 | renew-carrier-cert.sh | 04:00 daily | Renews a client certificate for a carrier API? Ask. Missing this would break label printing on expiry day |
                | vm-trk-* | purge-expired-tokens.js | :05 hourly | Becomes a CronJob in the tracking chart |
                | vm-inv-01 | run.sh (invoice-sync) | 02:15 daily | The whole service; becomes a CronJob |

                Note the first row: the route-planner runbook assumes the 03:30 UTC batch is triggered
                externally, but this says it's cron on the VMs themselves — and on all three of them, which
                suggests the script has some "only run if I'm the leader" check, or it runs three times. Worth
                asking Tomasz before 2025-10-14, and adding a CronJob to the chart for it.

                Also: the cron daemons on these VMs run in whatever time zone the VMs are set to. If any of
                them is on Europe/Amsterdam rather than UTC, "03:30" is actually 01:30 or 02:30 UTC depending
                on the season. Have Ruben run `timedatectl` on each.
                """
            )
        ),
        u(
            "Ha. They're on Europe/Amsterdam, all of them. So the batch actually runs at 01:30 UTC in "
            "summer. Glad I made the UTC rule. Tomasz says the script checks a lock row in Postgres, so "
            "only one of the three does the work."
        ),
        a(
            w(
                r"""
                Then two corrections to what we had:

                - The batch time in the runbook: the real batch is 03:30 Amsterdam time, which is 01:30 UTC until
                  2025-10-26 and 02:30 UTC after the clocks go back. The cutover window (21:00–23:00 UTC) is still clear
                  of it either way, and "check it finished" should be 02:30 UTC on 2025-10-15.
                - For the CronJob, decide with Tomasz whether the business wants "03:30 local" or "a fixed UTC time". If
                  local, set `timeZone: Europe/Amsterdam` on the CronJob (supported since Kubernetes 1.27); if the
                  dispatchers only care that routes exist by 05:00 local, a fixed `30 1 * * *` UTC is simpler and never
                  shifts.

                The Postgres lock row means you can keep it as a CronJob with `concurrencyPolicy: Forbid`
                and one pod — no leader election needed in Kubernetes.
                """
            )
        ),
    ],
)

S6 = Session(
    "2025-10-16T10:20:00Z",
    [
        u(
            w(
                r"""
                We did it. route-planner has been serving from EKS since Tuesday night, 2025-10-14, and the
                batch this morning finished at 02:51 UTC, all depots planned. The VMs are stopped but
                still there until tomorrow per the runbook.

                One hiccup: after we switched DNS at 21:05 UTC, the dispatcher app kept failing re-plans for
                about seven minutes, even though nslookup on the dispatcher PCs already showed the ALB. Then
                it recovered by itself. Tomasz thinks it's the dispatcher app, which is also Java.
                """
            ),
            key="pm-svc-rp",
        ),
        a(
            w(
                r"""
                Congratulations — first service over, and with a clean batch the morning after.

                Tomasz is almost certainly right. Java caches DNS lookups inside the JVM, independently of
                the operating system: `nslookup` asks the OS resolver, which had the new answer, while the
                dispatcher app's JVM still held the old HAProxy address. The cache lifetime is set by the
                `networkaddress.cache.ttl` security property; when no security manager is installed the
                default is 30 seconds, but plenty of older apps (or app servers) set it much higher, or to
                -1 (forever, until restart). Seven minutes suggests someone set it to a few hundred seconds.

                Worth finding out before the next cutover, since tracking-api has Java clients too (the
                website backend, if I remember your architecture). In the dispatcher app, look for:

                ```
                -Dsun.net.inetaddr.ttl=...
                networkaddress.cache.ttl=...   (in $JAVA_HOME/conf/security/java.security)
                ```

                For the runbook template, add a line to every future cutover: "list the clients and their
                DNS caching behaviour; if any cache longer than the TTL, plan to restart them after the
                switch, or accept the gap."

                And a small note for the write-up to Marcus: seven minutes of failed re-plans in a window
                where nobody was dispatching is exactly why the window was at 21:00 UTC.
                """
            )
        ),
        u(
            w(
                r"""
                Next is label-gateway, and Priya's taking it, with me reviewing. Femke Jansen on the
                integrations team owns the code. What makes it awkward: two of the carrier APIs it talks to
                have our colo's public IP on an allow-list, and they take a week or more to change it. And
                the label printers at the depots connect in to it (raw TCP 9101 for status, HTTPS for label
                fetches), over the depot site-to-site VPNs, which terminate on the same FortiGate in Almere.
                """
            ),
            key="pm-femke",
        ),
        a(
            w(
                r"""
                That gives two constraints that shape the plan: a **stable, known egress IP** for the carrier
                calls, and **reachability from the depot networks** through Almere.

                **Egress.** Pods in private subnets leave through the NAT gateways, so their public source IP
                is the NAT gateway's Elastic IP. In prod we have one NAT per AZ, so three possible source IPs.
                Either give the carriers all three, or route label-gateway's traffic through one. Three is
                simpler and survives an AZ failure. Make the EIPs explicit in Terraform so they can never
                change under you:

                ```hcl
                # infra/nat_eips.tf
                resource "aws_eip" "nat" {
                  count  = var.env == "prod" ? 3 : 1
                  domain = "vpc"
                  tags = {
                    Name = "${local.name}-nat-${count.index}"
                  }
                  lifecycle {
                    prevent_destroy = true
                  }
                }
                ```

                and in the VPC module:

                ```hcl
                reuse_nat_ips       = true
                external_nat_ip_ids = aws_eip.nat[*].id
                ```

                Send the carriers the three addresses **now**, since they need a week; ask them to add, not
                replace, so the colo IP keeps working until cutover.

                **Ingress from depots.** The depots reach Almere, and Almere now reaches the VPC over the
                tunnel. So the printers can reach an internal NLB in the VPC if:

                - the FortiGate routes 10.40.0.0/16 from the depot VPN zones into the AWS tunnel (policy from each depot
                  zone to the AWS zone);
                - the AWS side has routes back to the depot subnets over the VPN (add them as `aws_vpn_connection_route`
                  entries like the 10.20.0.0/16 one).

                Use a Service of type LoadBalancer with the internal NLB annotations for TCP 9101, and the
                internal ALB for HTTPS. What are the depot subnets?
                """
            )
        ),
        u("Venlo 10.31.0.0/24, Duisburg 10.32.0.0/24, Antwerp 10.33.0.0/24."),
        a(
            w(
                r"""
                Then on the AWS side:

                ```hcl
                # infra/vpn.tf (addition)
                variable "depot_cidrs" {
                  type = map(string)
                  default = {
                    venlo    = "10.31.0.0/24"
                    duisburg = "10.32.0.0/24"
                    antwerp  = "10.33.0.0/24"
                  }
                }

                resource "aws_vpn_connection_route" "depots" {
                  for_each               = var.depot_cidrs
                  vpn_connection_id      = aws_vpn_connection.almere.id
                  destination_cidr_block = each.value
                }
                ```

                And the printer-facing Service in the label-gateway chart:

                ```yaml
                apiVersion: v1
                kind: Service
                metadata:
                  name: label-gateway-printers
                  labels:
                    {{- include "label-gateway.labels" . | nindent 4 }}
                  annotations:
                    service.beta.kubernetes.io/aws-load-balancer-type: external
                    service.beta.kubernetes.io/aws-load-balancer-scheme: internal
                    service.beta.kubernetes.io/aws-load-balancer-nlb-target-type: ip
                spec:
                  type: LoadBalancer
                  selector:
                    {{- include "label-gateway.selector" . | nindent 4 }}
                  ports:
                    - name: printer-status
                      port: 9101
                      targetPort: 9101
                      protocol: TCP
                ```

                Ruben's FortiGate policies are the other half; with his last day on 2025-10-31, that's
                worth getting in his calendar this week.
                """
            )
        ),
        u(
            w(
                r"""
                Priya wrote a script to check the carrier endpoints from inside the cluster — 90 lines of
                bash with curl, jq and a lot of `[[ ]]`. It works, I think, but I can't review it. General
                rule for me: anything longer than a screen, twenty-odd lines, I'd rather have in Python than
                bash. I can read Python at 3am, I can't read nested bash conditionals at 3pm.
                """
            ),
            key="pm-pref-python",
        ),
        a(
            w(
                r"""
                Here's the same idea in Python, standard library only so it runs in any `python:3.12-slim`
                pod without a pip install:

                ```python
                #!/usr/bin/env python3
                # Check that label-gateway's carrier endpoints answer from inside the cluster.
                # Run as a one-off pod in the namespace label-gateway lives in; exits non-zero if any
                # endpoint fails, so it can also run as a Job after each deploy.

                import json
                import socket
                import ssl
                import sys
                import time
                import urllib.request

                ENDPOINTS = {
                    "carrier-a": "https://api.carrier-a.example/v2/health",
                    "carrier-b": "https://labels.carrier-b.example/status",
                    "carrier-c": "https://ws.carrier-c.example/ping",
                }
                TIMEOUT_S = 5.0


                def egress_ip() -> str:
                    with urllib.request.urlopen("https://checkip.amazonaws.com", timeout=TIMEOUT_S) as r:
                        return r.read().decode().strip()


                def check(name: str, url: str) -> dict:
                    started = time.monotonic()
                    result = {"carrier": name, "url": url}
                    try:
                        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as r:
                            result["status"] = r.status
                            result["ok"] = 200 <= r.status < 400
                    except urllib.error.HTTPError as e:
                        result["status"] = e.code
                        result["ok"] = False
                    except (urllib.error.URLError, socket.timeout, ssl.SSLError) as e:
                        result["status"] = None
                        result["error"] = str(e)
                        result["ok"] = False
                    result["ms"] = round((time.monotonic() - started) * 1000)
                    return result


                def main() -> int:
                    print(f"egress ip: {egress_ip()}")
                    results = [check(name, url) for name, url in ENDPOINTS.items()]
                    for r in results:
                        print(json.dumps(r))
                    failed = [r["carrier"] for r in results if not r["ok"]]
                    if failed:
                        print(f"FAILED: {', '.join(failed)}", file=sys.stderr)
                        return 1
                    return 0


                if __name__ == "__main__":
                    sys.exit(main())
                ```

                Printing the egress IP first is the useful bit: when a carrier answers 403, the first question
                is always "which IP did they see?", and now it's in the output.

                To run it once:

                ```bash
                kubectl run carrier-check --namespace staging --rm --stdin --tty --restart=Never \
                  --image=python:3.12-slim --labels=team=platform,cost-centre=ops-4471 \
                  --command -- python3 -c "$(cat check_carriers.py)"
                ```

                I'd tell Priya the bash version wasn't wrong, just not reviewable by the person who has to
                approve it — that's a fair bar, not a judgement on her script.
                """
            )
        ),
        u(
            w(
                r"""
                She took it well, she said she prefers Python anyway and only wrote bash because the old
                scripts are bash. Two more label-gateway things from Ruben's brain dump. cleanup_labels.sh
                deletes generated PDF labels older than 2 hours from /var/spool/labels — the gateway writes
                every label there before the printer fetches it. And renew-carrier-cert.sh renews a client
                certificate for carrier B, which expires every 30 days.
                """
            )
        ),
        a(
            w(
                r"""
                Both map nicely onto Kubernetes primitives.

                **The spool directory.** An `emptyDir` with a `sizeLimit` replaces both the directory and
                most of the cleanup job: it lives as long as the pod, and if it ever fills past the limit the
                kubelet evicts the pod rather than letting the node's disk fill. Keep the two-hour cleanup as
                a tiny sidecar loop, or better, ask Femke to delete labels in the gateway once the printer
                has fetched them.

                **The carrier certificate.** Store it in AWS Secrets Manager and sync it into the cluster
                with the External Secrets Operator, so the renewal job writes to one place and every pod
                gets the new certificate.

                The label-gateway chart's deployment and values, whole:

                ```yaml
                # charts/label-gateway/templates/deployment.yaml
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: label-gateway
                  labels:
                    {{- include "label-gateway.labels" . | nindent 4 }}
                spec:
                  replicas: {{ .Values.replicas }}
                  selector:
                    matchLabels:
                      {{- include "label-gateway.selector" . | nindent 6 }}
                  template:
                    metadata:
                      labels:
                        {{- include "label-gateway.labels" . | nindent 8 }}
                    spec:
                      containers:
                        - name: label-gateway
                          image: "{{ .Values.image.repository }}:{{ required "image.tag must be a commit SHA" .Values.image.tag }}"
                          args: ["--spool-dir=/var/spool/labels", "--listen=:8443", "--status-port=9101"]
                          ports:
                            - name: https
                              containerPort: 8443
                            - name: printer-status
                              containerPort: 9101
                          readinessProbe:
                            httpGet:
                              path: /healthz
                              port: https
                              scheme: HTTPS
                            periodSeconds: 10
                          resources:
                            requests:
                              cpu: 100m
                              memory: 128Mi
                            limits:
                              memory: 256Mi
                          volumeMounts:
                            - name: spool
                              mountPath: /var/spool/labels
                            - name: carrier-b-cert
                              mountPath: /etc/label-gateway/carrier-b
                              readOnly: true
                      volumes:
                        - name: spool
                          emptyDir:
                            sizeLimit: 2Gi
                        - name: carrier-b-cert
                          secret:
                            secretName: carrier-b-client-cert
                ```

                ```yaml
                # charts/label-gateway/templates/externalsecret.yaml
                apiVersion: external-secrets.io/v1beta1
                kind: ExternalSecret
                metadata:
                  name: carrier-b-client-cert
                  labels:
                    {{- include "label-gateway.labels" . | nindent 4 }}
                spec:
                  refreshInterval: 1h
                  secretStoreRef:
                    kind: ClusterSecretStore
                    name: aws-secrets-manager
                  target:
                    name: carrier-b-client-cert
                  data:
                    - secretKey: tls.crt
                      remoteRef:
                        key: label-gateway/carrier-b
                        property: cert
                    - secretKey: tls.key
                      remoteRef:
                        key: label-gateway/carrier-b
                        property: key
                ```

                ```yaml
                # charts/label-gateway/values-prod.yaml
                replicas: 2
                ```

                ```yaml
                # charts/label-gateway/values-staging.yaml
                replicas: 1
                ```

                Secrets mounted as volumes are updated in place when the Secret changes (within a minute or
                so), so if the gateway re-reads the certificate per connection, the monthly renewal needs no
                restart. Ask Femke whether it does; if it loads it once at startup, add a checksum annotation
                or have the renewal job trigger a rollout.
                """
            )
        ),
        u("It loads it once at startup, of course. I'll ask her to re-read it, and use the rollout trick meanwhile."),
        a(
            w(
                r"""
                Sensible. The renewal job (now a CronJob) can finish with:

                ```bash
                kubectl rollout restart deployment/label-gateway --namespace prod
                kubectl rollout status deployment/label-gateway --namespace prod --timeout=3m
                ```

                Give its ServiceAccount a Role that allows only `patch` on that one deployment
                (`resourceNames: ["label-gateway"]`), so a compromised renewal job can't touch anything else.
                """
            )
        ),
    ],
)

S7 = Session(
    "2025-11-04T09:10:00Z",
    [
        u(
            w(
                r"""
                Catching up after a busy fortnight. label-gateway has been live in prod since 2025-10-28 —
                Priya drove the cutover, all three depots printing, both carriers had added the new IPs in
                time. She was very calm about it. Ruben's leaving drinks were last Friday; he got a model
                truck signed by the Venlo depot.

                Less fun: the October AWS bill. The cluster side came to €2,460 for the month, and Marcus
                remembers the €1,870 figure. We only have two services on it. What happened?
                """
            ),
            key="pm-cost-oct",
        ),
        a(
            w(
                r"""
                Good news on label-gateway, and well done Priya.

                On the bill: €2,460 with two services means something is costing more than the model
                assumed, not that the model was too small (it already had RDS and the later services in it,
                which you aren't paying for yet). The usual suspects on a young EKS cluster, in order of how
                often they're the answer:

                1. **NAT gateway data processing.** Every byte a pod in a private subnet sends to or receives from the
                   internet — *including S3* — goes through NAT at $0.052/GB in Frankfurt unless there's a VPC endpoint.
                2. **More nodes than planned.** The node group may have scaled to its max during the batch and stayed
                   there.
                3. **CloudWatch Logs ingestion.** Chatty Java apps at DEBUG can do hundreds of GB.
                4. **Cross-AZ traffic.** Pods talking to pods in other AZs are charged both ways.

                Can you paste the Cost Explorer breakdown for October, grouped by usage type, filtered to
                the `cost-centre` tag?
                """
            )
        ),
        u(
            w(
                r"""
                ```
                Usage type                                   Cost (EUR)
                EUC1-NatGateway-Bytes                           812.40
                EUC1-BoxUsage:m6i.large                         431.77
                EUC1-DataProcessing-Bytes (CloudWatch Logs)     388.15
                EKS cluster hours                                67.16
                EUC1-NatGateway-Hours                           129.60
                EUC1-LoadBalancerUsage                           61.90
                EUC1-DataTransfer-Regional-Bytes                 187.32
                EBS gp3                                          41.08
                VPN connection hours                             33.12
                Other                                           307.50
                Total                                          2459.00
                ```
                """
            )
        ),
        a(
            w(
                r"""
                There it is: **€812 of NAT data processing.** That's roughly 15 TB through NAT gateways. The
                prime suspect is the route-planner init container downloading the 2.1 GB road graph from S3
                on every pod start — through NAT, because there's no S3 gateway endpoint in the VPC. Every
                restart, every node rotation, every staging deploy: 2.1 GB each time. The nightly batch
                re-plans don't download it, but during the probe debugging in September and the cutover
                rehearsals you had a lot of pod starts.

                The fix is one resource and it's free — S3 **gateway** endpoints have no hourly or per-GB
                charge:

                ```hcl
                # infra/endpoints.tf
                resource "aws_vpc_endpoint" "s3" {
                  vpc_id            = module.vpc.vpc_id
                  service_name      = "com.amazonaws.eu-central-1.s3"
                  vpc_endpoint_type = "Gateway"
                  route_table_ids   = module.vpc.private_route_table_ids
                  tags = {
                    Name = "${local.name}-s3"
                  }
                }
                ```

                Then the others:

                | Line | € | Cause (likely) | Fix |
                |---|---|---|---|
                | NAT bytes | 812 | S3 graph downloads, ECR image pulls | S3 gateway endpoint (ECR layers are served from S3, so this helps pulls too) |
                | m6i.large | 432 | ~5 nodes average, not 3 | Check the autoscaler; requests may be too high |
                | CloudWatch Logs | 388 | route-planner at DEBUG in staging? | Set INFO; 14-day retention on log groups |
                | Regional transfer | 187 | Cross-AZ pod traffic, including the graph copy | Mostly goes away with the endpoint |

                Realistically the endpoint and the log level bring next month to around €1,500–1,700. For
                Marcus: the estimate wasn't wrong about the architecture, it missed one free resource that
                every EKS VPC should have — it's the most common first-bill surprise on AWS.
                """
            )
        ),
        u(
            "Applied the endpoint, and Tomasz turned the logging down. I want to see this every week instead "
            "of finding out at the end of the month. Can you write a script that pulls cost by our tag from "
            "Cost Explorer and prints it per service?"
        ),
        a(
            w(
                r"""
                Here's `cost_report.py`. It uses Cost Explorer through boto3, groups by the `cost-centre`
                tag and by AWS service, and prints a table plus a total, with the previous period next to it
                so you see the trend. Cost Explorer API calls cost $0.01 each, so a weekly run costs nothing
                worth mentioning.

                ```python
                #!/usr/bin/env python3
                # cost_report.py — spend for the platform cost centre, grouped by AWS service.
                #
                # Usage:
                #   python3 cost_report.py                  # last full month vs the month before
                #   python3 cost_report.py --days 7         # last 7 days vs the 7 before
                #
                # Needs ce:GetCostAndUsage on the calling role. Cost Explorer always answers in USD;
                # EUR_PER_USD converts for the report.

                import argparse
                import datetime as dt
                from collections import defaultdict

                import boto3

                COST_CENTRE = "ops-4471"
                EUR_PER_USD = 0.92


                def periods(days: int | None) -> tuple[dict, dict]:
                    today = dt.date.today()
                    if days:
                        end = today
                        start = end - dt.timedelta(days=days)
                        prev_start = start - dt.timedelta(days=days)
                        return (
                            {"Start": start.isoformat(), "End": end.isoformat()},
                            {"Start": prev_start.isoformat(), "End": start.isoformat()},
                        )
                    first_this = today.replace(day=1)
                    last_start = (first_this - dt.timedelta(days=1)).replace(day=1)
                    prev_start = (last_start - dt.timedelta(days=1)).replace(day=1)
                    return (
                        {"Start": last_start.isoformat(), "End": first_this.isoformat()},
                        {"Start": prev_start.isoformat(), "End": last_start.isoformat()},
                    )


                def spend_by_tag(ce, period: dict, granularity: str = "MONTHLY") -> dict[str, float]:
                    # EUR per AWS service for resources tagged with our cost centre.
                    totals: dict[str, float] = defaultdict(float)
                    token = None
                    while True:
                        kwargs = {
                            "TimePeriod": period,
                            "Granularity": granularity,
                            "Metrics": ["UnblendedCost"],
                            "Filter": {"Tags": {"Key": "cost-centre", "Values": [COST_CENTRE]}},
                            "GroupBy": [{"Type": "DIMENSION", "Key": "SERVICE"}],
                        }
                        if token:
                            kwargs["NextPageToken"] = token
                        resp = ce.get_cost_and_usage(**kwargs)
                        for result in resp["ResultsByTime"]:
                            for group in result["Groups"]:
                                usd = float(group["Metrics"]["UnblendedCost"]["Amount"])
                                totals[group["Keys"][0]] += usd * EUR_PER_USD
                        token = resp.get("NextPageToken")
                        if not token:
                            return dict(totals)


                def render(current: dict[str, float], previous: dict[str, float]) -> str:
                    rows = sorted(current.items(), key=lambda kv: kv[1], reverse=True)
                    lines = [f"{'Service':<45} {'EUR':>10} {'prev':>10} {'change':>8}"]
                    for service, eur in rows:
                        prev = previous.get(service, 0.0)
                        change = f"{(eur - prev) / prev * 100:+.0f}%" if prev else "new"
                        lines.append(f"{service:<45} {eur:>10.2f} {prev:>10.2f} {change:>8}")
                    total, prev_total = sum(current.values()), sum(previous.values())
                    lines.append(f"{'TOTAL':<45} {total:>10.2f} {prev_total:>10.2f}")
                    return "\n".join(lines)


                def main() -> None:
                    parser = argparse.ArgumentParser(description=__doc__)
                    parser.add_argument("--days", type=int, help="compare the last N days instead of months")
                    args = parser.parse_args()
                    ce = boto3.client("ce", region_name="us-east-1")
                    current_period, previous_period = periods(args.days)
                    granularity = "DAILY" if args.days else "MONTHLY"
                    current = spend_by_tag(ce, current_period, granularity)
                    previous = spend_by_tag(ce, previous_period, granularity)
                    print(f"Platform spend, cost-centre {COST_CENTRE}, {current_period['Start']} to {current_period['End']}")
                    print(render(current, previous))


                if __name__ == "__main__":
                    main()
                ```

                Notes:

                - `spend_by_tag` does the real work: one filtered, grouped Cost Explorer query per period, paginated,
                  converted to euros. Everything else is formatting.
                - The Cost Explorer endpoint lives in `us-east-1` regardless of where your resources are.
                - The tag has to be **activated as a cost allocation tag** in the Billing console (Cost allocation tags
                  → `cost-centre` → Activate) before it shows up, and only applies from activation onward. If the
                  October numbers above came from a tag filter, it's already active.
                - Cost data lags by up to 24 hours, so a Monday-morning run for "last 7 days" misses most of Sunday.
                """
            ),
            key="pm-code-cost",
        ),
        u(
            w(
                r"""
                Works, first try. Other news: Marcus is going on parental leave from 2025-11-10 until some
                time in February — his partner is due next week. While he's out, Annika de Wit, who runs
                service delivery, is acting head of infrastructure, and she's the one who signs off
                production cutovers now. She's sharp but not technical in the Kubernetes sense, more of a
                process person.
                """
            ),
            key="pm-annika",
        ),
        a(
            w(
                r"""
                Good to know before the tracking-api cutover, which is the one where a sign-off actually
                matters. For a process-minded approver, I'd change how the runbook is presented rather than
                what it says:

                - Put a **one-paragraph summary** at the top: what changes, when (UTC), what customers could notice, how
                  long rollback takes.
                - A **go/no-go table** with named owners, so she can see who says "go" for what.
                - An explicit **"what would make us stop"** list: error rate above X, latency above Y, any failed test
                  re-plan.

                Process people tend to ask "who decides, and based on what?" — if the runbook answers that
                before she asks, sign-off is quick. Update the approver line in the route-planner runbook
                template to "Annika de Wit (acting head of infrastructure)" so the next one starts right.
                """
            )
        ),
        u(
            "Another change: Tomasz got multi-arch image builds going in GitLab (buildx with an arm64 runner), "
            "so we're moving the nodes to m7g.large. Graviton is about 20% cheaper for the same size and the "
            "JVM doesn't care. Can you give me the node group change?",
            key="pm-node-m7g",
        ),
        a(
            w(
                r"""
                Here's the node group block as it should read, replacing the `general` group. I'd add a new
                group and drain the old one rather than changing `instance_types` in place — an in-place
                change of instance type forces a replacement of the whole group, and you'd rather control the
                order:

                ```hcl
                eks_managed_node_groups = {
                  general = {
                    instance_types = ["m6i.large"]
                    min_size       = 0
                    max_size       = 6
                    desired_size   = 3
                    capacity_type  = "ON_DEMAND"
                    labels = {
                      team          = "platform"
                      "cost-centre" = "ops-4471"
                    }
                  }

                  graviton = {
                    ami_type       = "AL2023_ARM_64_STANDARD"
                    instance_types = ["m7g.large"]
                    min_size       = 3
                    max_size       = 6
                    desired_size   = 3
                    capacity_type  = "ON_DEMAND"
                    labels = {
                      team          = "platform"
                      "cost-centre" = "ops-4471"
                    }
                  }
                }
                ```

                Then, once the Graviton nodes are Ready:

                ```bash
                kubectl cordon --selector eks.amazonaws.com/nodegroup=general
                kubectl drain --selector eks.amazonaws.com/nodegroup=general \
                  --ignore-daemonsets --delete-emptydir-data --timeout=15m
                ```

                The PDB makes the drain wait for each route-planner replacement to become Ready, so expect it
                to take a while. Before you start, check every image in the cluster has an arm64 variant:

                ```bash
                kubectl get pods --all-namespaces --output jsonpath='{range .items[*]}{.spec.containers[*].image}{"\n"}{end}' \
                  | sort --unique
                ```

                and for each, `docker manifest inspect IMAGE | grep architecture`. label-gateway is Go, so
                `GOARCH=arm64` is all it needs; the add-ons from the official charts are all multi-arch.
                Finally, remove the `general` block in a second merge request once it's empty.
                """
            )
        ),
        u(
            "And the Kubernetes upgrade. AWS keeps emailing me that 1.29 leaves standard support in March. "
            "What's the order of operations for 1.29 to 1.30?"
        ),
        a(
            w(
                r"""
                The order for any EKS minor upgrade:

                1. **Check for removed APIs.** 1.30 removes nothing you're likely to use (the big removals were 1.25 and
                   1.26), but run a scan anyway, e.g. `pluto detect-all-in-cluster` or `kubent`, so it becomes a habit
                   for the 1.32 upgrade.
                2. **Read the EKS upgrade insights** in the console (Cluster → Upgrade insights). AWS lists deprecated
                   API calls it has actually seen in your audit logs.
                3. **Upgrade the control plane:** change `cluster_version = "1.30"` in the EKS module, plan, apply.
                   Around 10 minutes; the API stays available.
                4. **Upgrade the managed add-ons** (vpc-cni, coredns, kube-proxy, ebs-csi) to versions listed as
                   compatible with 1.30. The module does this if you leave their versions unset and set `most_recent =
                   true`.
                5. **Roll the node groups** — managed node groups pick up the new AMI when you apply; the PDBs pace it.
                6. **Check the Helm-installed add-ons** (LB controller, external-dns, cert-manager, metrics-server)
                   support 1.30; all current releases do.

                Do staging first — though since staging and prod share a cluster for now, "staging first"
                means doing it on a quiet weekday morning with the tracking-api cutover not yet scheduled.
                I'd do it right after the Graviton switch, not at the same time: one change at a time makes a
                broken node easy to explain.
                """
            )
        ),
    ],
)

S8 = Session(
    "2025-11-12T14:30:00Z",
    [
        u(
            w(
                r"""
                Graviton switch done last week without drama, bill is already looking better in the weekly
                report. Now the big one: tracking-api. Facts:

                - Node.js 20, Express, stateless apart from Postgres. Two VMs today behind the same HAProxy.
                - Postgres 13 on a VM in the colo, about 180 GB, most of it the `shipment_events` table.
                - Customers, the website and the customer service tool all poll it. About 300 requests per second at
                  peak, mostly `GET /shipments/:id/events`.
                - Tokens purged hourly by that cron script from Ruben's list.

                I want the database on RDS, not in the cluster. What's the plan?
                """
            ),
            key="pm-rps-300",
        ),
        a(
            w(
                r"""
                This is the first migration with state, so the plan has two tracks that meet at cutover:
                the database moves first, then the app follows it.

                ## Track 1 — the database

                RDS for PostgreSQL, upgraded on the way (13 leaves community support in November 2025, so
                go to 16):

                ```hcl
                # infra/rds_tracking.tf
                module "tracking_db" {
                  source  = "terraform-aws-modules/rds/aws"
                  version = "~> 6.9"

                  identifier           = "tracking-${var.env}"
                  engine               = "postgres"
                  engine_version       = "16.4"
                  family               = "postgres16"
                  major_engine_version = "16"
                  instance_class       = var.env == "prod" ? "db.m6g.large" : "db.t4g.medium"

                  allocated_storage     = 300
                  max_allocated_storage = 600
                  storage_type          = "gp3"

                  db_name  = "tracking"
                  username = "tracking_admin"
                  manage_master_user_password = true

                  multi_az               = var.env == "prod"
                  db_subnet_group_name   = module.vpc.database_subnet_group_name
                  vpc_security_group_ids = [aws_security_group.tracking_db.id]

                  backup_retention_period = 14
                  deletion_protection     = true
                  performance_insights_enabled = true

                  parameters = [
                    { name = "rds.logical_replication", value = "1", apply_method = "pending-reboot" },
                  ]
                }
                ```

                (That needs database subnets in the VPC module: `database_subnets = ["10.40.112.0/24",
                "10.40.113.0/24", "10.40.114.0/24"]` and `create_database_subnet_group = true`.)

                Moving 180 GB with minimal downtime: **logical replication** from the colo Postgres 13 into
                RDS 16. Initial copy runs while the app keeps writing to the old database, then changes
                stream continuously; at cutover you stop writes, let replication catch up (seconds), fix
                sequences, and point the app at RDS.

                ## Track 2 — the app

                The chart follows the route-planner pattern, plus a HorizontalPodAutoscaler and a CronJob for
                the token purge. Node is single-threaded, so many small pods beat a few large ones.

                ## Order

                1. RDS up, replication running, lag at zero for a week.
                2. tracking-api in staging against a staging RDS restored from a snapshot.
                3. Load test staging at 2× peak.
                4. Cutover: writes stopped, replication drained, DNS switched, app on RDS. Downtime target under five
                   minutes, in a quiet window.
                """
            )
        ),
        u("Let's see the chart, especially the autoscaling part."),
        a(
            w(
                r"""
                The parts that differ from route-planner — deployment, HPA and the purge CronJob. Sizing is
                from your 300 requests per second: a Node process handles a few hundred simple reads per
                second at one core, so three pods cover normal peak and the HPA adds more on spikes.

                ```yaml
                # charts/tracking-api/templates/hpa.yaml
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata:
                  name: tracking-api
                  labels:
                    {{- include "tracking-api.labels" . | nindent 4 }}
                spec:
                  scaleTargetRef:
                    apiVersion: apps/v1
                    kind: Deployment
                    name: tracking-api
                  minReplicas: {{ .Values.autoscaling.minReplicas }}
                  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
                  metrics:
                    - type: Resource
                      resource:
                        name: cpu
                        target:
                          type: Utilization
                          averageUtilization: {{ .Values.autoscaling.targetCPU }}
                ```

                ```yaml
                # charts/tracking-api/values-prod.yaml
                autoscaling:
                  minReplicas: 3
                  maxReplicas: 6
                  targetCPU: 65
                resources:
                  cpu: 500m
                  memory: 384Mi
                database:
                  host: tracking-prod.cluster-placeholder.eu-central-1.rds.amazonaws.com
                  poolMax: 20
                ```

                ```yaml
                # charts/tracking-api/templates/cronjob-purge.yaml
                apiVersion: batch/v1
                kind: CronJob
                metadata:
                  name: tracking-purge-tokens
                  labels:
                    {{- include "tracking-api.labels" . | nindent 4 }}
                spec:
                  schedule: "5 * * * *"   # hh:05 UTC, every hour
                  concurrencyPolicy: Forbid
                  jobTemplate:
                    spec:
                      backoffLimit: 2
                      template:
                        metadata:
                          labels:
                            {{- include "tracking-api.labels" . | nindent 12 }}
                        spec:
                          restartPolicy: Never
                          containers:
                            - name: purge
                              image: "{{ .Values.image.repository }}:{{ required "image.tag must be a commit SHA" .Values.image.tag }}"
                              command: ["node", "bin/purge-expired-tokens.js"]
                ```

                65% CPU as the target leaves room for Node's event loop to stay responsive while new pods
                start (they take ~5 seconds, unlike route-planner). The HPA reads CPU relative to the
                *request*, which is why the request has to be realistic.
                """
            )
        ),
        u(
            "Correction before you go further, sorry: peak is 1,200 requests per second, not 300. I was "
            "looking at the weekend graph. Weekday mornings between 06:00 and 09:00 UTC, when every depot "
            "and every customer checks their deliveries, it's 1,200.",
            key="pm-rps-1200",
        ),
        a(
            w(
                r"""
                That changes the sizing by a factor of four, so good that it came up before the load test.
                Revised values — the HPA template stays as it is:

                ```yaml
                # charts/tracking-api/values-prod.yaml
                autoscaling:
                  minReplicas: 4
                  maxReplicas: 14
                  targetCPU: 65
                resources:
                  cpu: 500m
                  memory: 384Mi
                database:
                  host: tracking-prod.cluster-placeholder.eu-central-1.rds.amazonaws.com
                  poolMax: 20
                ```

                ```yaml
                # charts/tracking-api/values-staging.yaml
                autoscaling:
                  minReplicas: 1
                  maxReplicas: 3
                  targetCPU: 65
                database:
                  host: tracking-staging.cluster-placeholder.eu-central-1.rds.amazonaws.com
                  poolMax: 5
                ```

                Reasoning: at roughly 150 requests per second per pod at 65% of half a core, 1,200 rps needs
                about 8 pods; a maximum of 14 leaves headroom for a bad morning. Minimum 4 so the ramp at
                06:00 UTC doesn't start from almost nothing — the HPA reacts in 15-second steps, and a
                scale-up is typically a minute from spike to serving pod.

                The load test should be 2× the real peak, so 2,400 rps against staging scaled like prod. I'd
                use k6 from a pod in the cluster so you're not measuring your office uplink.
                """
            ),
            key="pm-hpa",
        ),
        u(
            w(
                r"""
                OK. Rota change while I think of it: we've moved the on-call handover from Monday morning to
                Wednesday at 13:00 UTC. Mondays were a mess — whoever handed over had to explain the whole
                weekend's tickets before coffee. Priya's on the rota now, Ruben's off. The next weeks:

                - from 2025-11-12: Dagny
                - from 2025-11-19: me
                - from 2025-11-26: Priya
                - from 2025-12-03: Dagny
                """
            ),
            key="pm-oncall-wed",
        ),
        a(
            w(
                r"""
                In the Opsgenie Terraform that's a new rotation start and a new list. Because reordering
                shifts weeks, it's cleaner to end the old rotation and start a new one than to edit it:

                ```hcl
                # oncall/main.tf — rotations
                resource "opsgenie_schedule_rotation" "weekly" {
                  schedule_id = opsgenie_schedule.platform.id
                  name        = "weekly-monday"
                  start_date  = "2025-10-06T09:00:00Z"
                  end_date    = "2025-11-12T13:00:00Z"
                  type        = "weekly"
                  length      = 1

                  dynamic "participant" {
                    for_each = ["you@brannock.nl", "dagny@brannock.nl", "ruben@brannock.nl"]
                    content {
                      type = "user"
                      id   = data.opsgenie_user.rota[participant.value].id
                    }
                  }
                }

                resource "opsgenie_schedule_rotation" "weekly_wednesday" {
                  schedule_id = opsgenie_schedule.platform.id
                  name        = "weekly-wednesday"
                  start_date  = "2025-11-12T13:00:00Z"
                  type        = "weekly"
                  length      = 1

                  dynamic "participant" {
                    for_each = var.rota
                    content {
                      type = "user"
                      id   = data.opsgenie_user.rota[participant.value].id
                    }
                  }
                }
                ```

                ```hcl
                # oncall/terraform.tfvars
                rota = [
                  "dagny@brannock.nl",
                  "you@brannock.nl",
                  "priya@brannock.nl",
                ]
                ```

                Starting the list with Dagny on 2025-11-12 13:00 UTC gives exactly your sequence: Dagny,
                you, Priya, Dagny again from 2025-12-03. The `data "opsgenie_user"` lookup needs Ruben's
                username to stay in the old rotation's list until the end date has passed; after that you can
                delete the old rotation entirely. Worth noting in the team channel that a handover at 13:00
                UTC on Wednesday is 14:00 in Rotterdam — after lunch, which is probably the point.
                """
            )
        ),
        u(
            w(
                r"""
                Yes, after lunch is the point. Logical replication then. The colo Postgres is 13.14, the
                `shipment_events` table has a bigserial primary key, a couple of tables don't have primary
                keys at all (some old lookup tables). Ruben left me notes on the server, and I have superuser.
                """
            )
        ),
        a(
            w(
                r"""
                Tables without primary keys are the one snag: logical replication can copy them but can't
                replicate UPDATEs or DELETEs on them unless they have a replica identity. For small lookup
                tables, `REPLICA IDENTITY FULL` is fine (it logs the whole old row); for anything large, add a
                primary key instead.

                On the colo side (source, Postgres 13):

                ```sql
                -- postgresql.conf: wal_level = logical, max_replication_slots >= 4, max_wal_senders >= 4
                -- then restart Postgres in a quiet moment

                CREATE ROLE replicator WITH LOGIN REPLICATION PASSWORD '...';
                GRANT SELECT ON ALL TABLES IN SCHEMA public TO replicator;

                ALTER TABLE depot_codes REPLICA IDENTITY FULL;
                ALTER TABLE carrier_codes REPLICA IDENTITY FULL;

                CREATE PUBLICATION tracking_pub FOR ALL TABLES;
                ```

                `pg_hba.conf` needs a line for the RDS subnets: `host tracking replicator 10.40.112.0/22 scram-sha-256`.

                On RDS (target, Postgres 16):

                ```bash
                # schema only, from the source, into RDS
                pg_dump --host 10.20.4.21 --username postgres --schema-only --no-owner tracking \
                  | psql --host "$RDS_HOST" --username tracking_admin --dbname tracking
                ```

                ```sql
                CREATE SUBSCRIPTION tracking_sub
                  CONNECTION 'host=10.20.4.21 dbname=tracking user=replicator password=...'
                  PUBLICATION tracking_pub;

                -- watch it
                SELECT * FROM pg_stat_subscription;
                ```

                Two things logical replication does **not** carry: sequences (at cutover, set each sequence
                to `max(id) + 1000` on RDS) and DDL (freeze schema changes until cutover). The initial copy
                of 180 GB over the VPN will take hours; the tunnels are limited to about 1.25 Gbit/s each, so
                start it in the evening and let it run overnight.
                """
            )
        ),
        u("Starting it tonight. Annika wants the cutover before the December peak, so we're aiming for 2025-11-25."),
        a(
            w(
                r"""
                That's tight but workable: a week of replication at zero lag takes you to about 2025-11-20,
                the load test fits in between. I'd book the window early in the morning rather than at night
                for this one — tracking traffic is lowest around 02:00–04:00 UTC, and the people who'd
                notice (customer service) aren't working then. Something like 2025-11-25, 03:00–04:00 UTC,
                with the go/no-go the afternoon before so Annika can sign off in working hours.
                """
            )
        ),
        u(
            "Works for me. Can you write the k6 script for the load test now, so Priya can start on it? "
            "Realistic mix: mostly shipment event lookups, some searches by customer reference, a few token "
            "refreshes."
        ),
        a(
            w(
                r"""
                Here's a script that models the morning peak as a ramp rather than a flat line, since the
                ramp is what exercises the autoscaler. The mix is weighted 85/12/3 from your description;
                adjust when you have real numbers from the HAProxy logs.

                ```javascript
                // loadtest/tracking-peak.js
                import http from "k6/http";
                import { check, sleep } from "k6";
                import { SharedArray } from "k6/data";

                const BASE = __ENV.BASE_URL || "http://tracking-api.staging.svc.cluster.local";
                const shipments = new SharedArray("shipments", () => JSON.parse(open("./shipment_ids.json")));
                const references = new SharedArray("refs", () => JSON.parse(open("./customer_refs.json")));

                export const options = {
                  scenarios: {
                    morning_peak: {
                      executor: "ramping-arrival-rate",
                      startRate: 200,
                      timeUnit: "1s",
                      preAllocatedVUs: 400,
                      maxVUs: 1500,
                      stages: [
                        { target: 1200, duration: "5m" },  // the 06:00 UTC ramp
                        { target: 2400, duration: "5m" },  // twice the real peak
                        { target: 2400, duration: "15m" }, // hold
                        { target: 200, duration: "5m" },   // back down: watch scale-in
                      ],
                    },
                  },
                  thresholds: {
                    http_req_failed: ["rate<0.01"],
                    "http_req_duration{kind:events}": ["p(99)<300"],
                    "http_req_duration{kind:search}": ["p(99)<800"],
                  },
                };

                function pick(list) {
                  return list[Math.floor(Math.random() * list.length)];
                }

                export default function () {
                  const roll = Math.random();
                  if (roll < 0.85) {
                    const res = http.get(`${BASE}/shipments/${pick(shipments)}/events`, { tags: { kind: "events" } });
                    check(res, { "events 200": (r) => r.status === 200 });
                  } else if (roll < 0.97) {
                    const res = http.get(`${BASE}/shipments?customerRef=${pick(references)}`, { tags: { kind: "search" } });
                    check(res, { "search 200": (r) => r.status === 200 });
                  } else {
                    const res = http.post(`${BASE}/tokens/refresh`, JSON.stringify({ client: "loadtest" }), {
                      headers: { "Content-Type": "application/json" },
                      tags: { kind: "token" },
                    });
                    check(res, { "token 2xx": (r) => r.status >= 200 && r.status < 300 });
                  }
                  sleep(0.1);
                }
                ```

                Run it from inside the cluster so the office uplink isn't the bottleneck:

                ```bash
                kubectl create configmap tracking-loadtest --namespace staging \
                  --from-file=loadtest/tracking-peak.js \
                  --from-file=loadtest/shipment_ids.json \
                  --from-file=loadtest/customer_refs.json
                kubectl run k6 --namespace staging --rm --stdin --tty --restart=Never \
                  --image=grafana/k6:0.54.0 --labels=team=platform,cost-centre=ops-4471 \
                  --overrides='{"spec":{"volumes":[{"name":"t","configMap":{"name":"tracking-loadtest"}}],"containers":[{"name":"k6","image":"grafana/k6:0.54.0","args":["run","/t/tracking-peak.js"],"volumeMounts":[{"name":"t","mountPath":"/t"}]}]}}'
                ```

                While it runs, watch three things side by side: `kubectl get hpa tracking-api --namespace
                staging --watch` for the replica count, the k6 p99 per tag, and the database's active
                connections in Performance Insights. Draw the shipment IDs from real recent shipments so the
                queries hit the same indexes production does.
                """
            )
        ),
    ],
)

S9 = Session(
    "2025-11-26T10:45:00Z",
    [
        u(
            w(
                r"""
                tracking-api is on EKS. We cut over yesterday, 2025-11-25, window 03:00–04:00 UTC. Writes
                stopped at 03:04, replication drained in 11 seconds, sequences bumped, DNS switched at 03:12,
                first customer request served by the new pods at 03:13. Done by 03:40. Annika signed off the
                afternoon before with about four questions, all of them answered by the go/no-go table. The
                load test at 2,400 rps last week was fine — p99 at 140 ms with 11 pods.
                """
            ),
            key="pm-svc-trk",
        ),
        a(
            w(
                r"""
                A nine-minute write freeze on the most customer-facing service, and an approver who had her
                questions answered by the document — that's a textbook cutover. Well done.

                The things to do in the first week after a database cutover, so you don't pay for the
                safety nets longer than needed or lose them too early:

                1. **Drop the subscription on RDS** (`DROP SUBSCRIPTION tracking_sub;`) — otherwise it keeps trying to
                   reach the old database, and the replication slot on the colo side keeps WAL forever, which fills that
                   disk.
                2. **Set the colo database read-only** (`ALTER DATABASE tracking SET default_transaction_read_only =
                   on;`) so anything still pointing at it fails loudly instead of writing to the wrong place. Watch its
                   logs for a few days for connections from unexpected clients.
                3. **Keep the colo VMs for a week**, as with route-planner, then snapshot and power off.
                4. **Check RDS Performance Insights** during tomorrow's 06:00–09:00 UTC peak; the first real morning is
                   when a missing index on the new version shows up.
                5. **Confirm backups**: take a manual snapshot now and note its identifier in the runbook.

                And update the services list: three of five on EKS.
                """
            )
        ),
        u(
            w(
                r"""
                Will do. Team news: we have a contractor starting Monday 2025-12-01 for eight weeks, Jonas
                Eklund. Swedish, lives in Delft, did a lot of Terraform at a port authority. He'll do
                invoice-sync first and then look at what to do with depot-portal. invoice-sync basics:
                Python 3.11 script, reads invoices from the ERP database, posts them to the finance system's
                API, about 4,000 invoices a night. It must run once, after midnight Amsterdam time, and
                finance wants it done by 05:00 UTC. On the VM it used about 400 MB of memory.
                """
            ),
            key="pm-jonas",
        ),
        a(
            w(
                r"""
                A nightly job that must run exactly once and finish by a deadline is what a CronJob is for.
                Here's the chart for invoice-sync — it's small enough to give you every file.

                ```yaml
                # charts/invoice-sync/Chart.yaml
                apiVersion: v2
                name: invoice-sync
                description: Nightly invoice export from the ERP to the finance system
                type: application
                version: 0.1.0
                appVersion: "2025.11"
                ```

                ```yaml
                # charts/invoice-sync/templates/_helpers.tpl
                {{- define "invoice-sync.labels" -}}
                app.kubernetes.io/name: invoice-sync
                app.kubernetes.io/instance: {{ .Release.Name }}
                app.kubernetes.io/version: {{ .Values.image.tag | quote }}
                team: platform
                cost-centre: ops-4471
                {{- end }}
                ```

                ```yaml
                # charts/invoice-sync/templates/cronjob.yaml
                apiVersion: batch/v1
                kind: CronJob
                metadata:
                  name: invoice-sync
                  labels:
                    {{- include "invoice-sync.labels" . | nindent 4 }}
                spec:
                  schedule: {{ .Values.schedule | quote }}
                  timeZone: Etc/UTC
                  concurrencyPolicy: Forbid
                  startingDeadlineSeconds: 3600
                  successfulJobsHistoryLimit: 3
                  failedJobsHistoryLimit: 5
                  jobTemplate:
                    spec:
                      backoffLimit: 1
                      activeDeadlineSeconds: 10800
                      template:
                        metadata:
                          labels:
                            {{- include "invoice-sync.labels" . | nindent 12 }}
                        spec:
                          serviceAccountName: invoice-sync
                          restartPolicy: Never
                          containers:
                            - name: invoice-sync
                              image: "{{ .Values.image.repository }}:{{ required "image.tag must be a commit SHA" .Values.image.tag }}"
                              command: ["python", "-m", "invoice_sync", "--since-last-run"]
                              env:
                                - name: ERP_DSN
                                  valueFrom:
                                    secretKeyRef:
                                      name: invoice-sync
                                      key: erp-dsn
                                - name: FINANCE_API_TOKEN
                                  valueFrom:
                                    secretKeyRef:
                                      name: invoice-sync
                                      key: finance-token
                                - name: OPSGENIE_HEARTBEAT_KEY
                                  valueFrom:
                                    secretKeyRef:
                                      name: invoice-sync
                                      key: heartbeat-key
                              resources:
                                requests:
                                  cpu: 250m
                                  memory: 512Mi
                                limits:
                                  memory: 512Mi
                ```

                ```yaml
                # charts/invoice-sync/values.yaml
                schedule: "15 1 * * *"   # 01:15 UTC daily = 02:15 Amsterdam in winter, 03:15 in summer
                image:
                  repository: 123456789012.dkr.ecr.eu-central-1.amazonaws.com/invoice-sync
                  tag: ""
                ```

                Why these settings:

                - `schedule: "15 1 * * *"` with `timeZone: Etc/UTC` — always after midnight in Amsterdam (01:15 UTC is
                  02:15 or 03:15 local), leaves almost four hours before the 05:00 UTC deadline.
                - `concurrencyPolicy: Forbid` and `backoffLimit: 1` — never two runs at once, and at most one retry,
                  because posting 4,000 invoices twice is worse than posting them late. Make sure `--since-last-run` is
                  genuinely idempotent before you trust the retry at all; if it isn't, set `backoffLimit: 0`.
                - `startingDeadlineSeconds: 3600` — if the controller misses the slot (say, during a control-plane
                  upgrade) it still starts within the hour rather than skipping the night.
                - `activeDeadlineSeconds: 10800` — a run that hangs is killed after three hours, while there is still
                  time before 05:00 UTC to react.
                - Memory 512Mi against 400 MB observed — tight-ish; watch the first few runs.

                Commit it as `feat(invoice-sync): add Helm chart with nightly CronJob`.
                """
            ),
            key="pm-cron-inv",
        ),
        u(
            "The control plane and both node groups are on 1.30 now, by the way — Priya did it on Thursday "
            "morning while I was at the dentist. Zero alerts. How do we find out if invoice-sync fails in the "
            "night? Finance finding out at 09:00 is not an option.",
            key="pm-k8s-130",
        ),
        a(
            w(
                r"""
                Nice work by Priya — and the best kind of upgrade, the one nobody noticed.

                For the job, the most reliable signal is a **dead man's switch**, not a failure alert: an
                alert fires when the job *doesn't report success* by a deadline. That covers every failure
                mode at once — crash, OOM, hang, the CronJob never being scheduled, the cluster being down —
                where a failure alert only covers the ones that get as far as failing.

                Opsgenie has this built in as **heartbeats**. Create one with a 24-hour interval and make the
                job ping it as its very last step after success:

                ```python
                # invoice_sync/heartbeat.py
                import os
                import urllib.request

                HEARTBEAT_URL = "https://api.eu.opsgenie.com/v2/heartbeats/invoice-sync/ping"


                def ping() -> None:
                    req = urllib.request.Request(
                        HEARTBEAT_URL,
                        method="POST",
                        headers={"Authorization": f"GenieKey {os.environ['OPSGENIE_HEARTBEAT_KEY']}"},
                    )
                    with urllib.request.urlopen(req, timeout=10) as resp:
                        resp.read()
                ```

                ```python
                # invoice_sync/__main__.py (the end of main)
                    exported = run_export(since_last_run=args.since_last_run)
                    log.info("exported %d invoices", exported)
                    heartbeat.ping()
                ```

                And in Terraform, next to the schedule:

                ```hcl
                resource "opsgenie_heartbeat" "invoice_sync" {
                  name          = "invoice-sync"
                  interval_unit = "hours"
                  interval      = 24
                  enabled       = true
                  owner_team_id = opsgenie_team.platform.id
                  alert_message  = "invoice-sync has not completed in 24 hours"
                  alert_priority = "P2"
                }
                ```

                A 24-hour heartbeat alerts around 01:30 UTC the *following* night if a run is missed, which
                is too late for the 05:00 UTC deadline. Two ways to tighten it: a second, short-lived check
                (a tiny CronJob at 04:30 UTC that pages if the last successful Job's completion time is older
                than four hours), or simply accept the 24-hour version for now and have finance's
                morning check as the backstop. I'd start with the heartbeat and add the 04:30 UTC check if a
                night ever slips through.
                """
            )
        ),
        u(
            "Heartbeat it is. Unrelated: Annika wants to take the team out to celebrate tracking-api once "
            "invoice-sync is done too. I'm vegetarian and Dagny's gone vegan this year, so I've been told to "
            "pick the place. Rotterdam makes that easy, luckily.",
            key="pm-pref-veg",
        ),
        a(
            "That's a nice gesture from her, and well earned. Rotterdam has no shortage of places where "
            "vegetarian isn't the sad option at the bottom of the menu — pick one where the vegan dishes "
            "aren't just the vegetarian ones with the cheese taken off, and Dagny will thank you."
        ),
        u(
            w(
                r"""
                Back to work. The cost report: I've been running it by hand on Monday mornings, and twice
                this month it died with a ThrottlingException from Cost Explorer. Can you make it retry, and
                run it in the cluster every Monday instead of on my laptop?
                """
            )
        ),
        a(
            w(
                r"""
                Two changes to `cost_report.py` and a CronJob. The retries belong in botocore's own retry
                configuration rather than a loop around the call: adaptive mode backs off on throttling and
                respects the service's rate limits.

                ```python
                # cost_report.py — the client construction in main(), replacing the old boto3.client line
                from botocore.config import Config

                RETRY_CONFIG = Config(retries={"max_attempts": 8, "mode": "adaptive"}, connect_timeout=10, read_timeout=30)

                ...
                    ce = boto3.client("ce", region_name="us-east-1", config=RETRY_CONFIG)
                ```

                That's the whole code change; `spend_by_tag` and the rest stay as they are.

                The CronJob, every Monday at 07:00 UTC (cost data lags a day, so that still misses part of
                Sunday; `--days 7` from a Monday covers the previous Monday to Sunday morning):

                ```yaml
                apiVersion: batch/v1
                kind: CronJob
                metadata:
                  name: cost-report
                  namespace: platform-tools
                  labels:
                    team: platform
                    cost-centre: ops-4471
                spec:
                  schedule: "0 7 * * 1"
                  timeZone: Etc/UTC
                  concurrencyPolicy: Forbid
                  jobTemplate:
                    spec:
                      backoffLimit: 2
                      template:
                        metadata:
                          labels:
                            team: platform
                            cost-centre: ops-4471
                        spec:
                          serviceAccountName: cost-report
                          restartPolicy: Never
                          containers:
                            - name: cost-report
                              image: 123456789012.dkr.ecr.eu-central-1.amazonaws.com/platform-tools:9b41d07
                              command: ["python3", "cost_report.py", "--days", "7"]
                ```

                The `cost-report` ServiceAccount gets an IAM role through Pod Identity with a policy that
                allows only `ce:GetCostAndUsage`. The output lands in the pod log for now; tell me where you
                want it to end up and I'll add that.
                """
            )
        ),
        u(
            "Priya asked whether we should replace the cluster autoscaler with Karpenter. Opinion? Short "
            "version please, I've got a meeting in ten minutes."
        ),
        a(
            w(
                r"""
                Short version: **yes, but not this quarter.**

                - Karpenter picks instance types per workload and bin-packs better; for a cluster with a JVM batch spike
                  and many small Node pods, it would likely save 10–20% on nodes.
                - It also makes the Graviton/x86 mix and spot instances easy later.
                - But it replaces how every node in the cluster is created, and you still have invoice-sync and the
                  depot-portal question ahead of you.

                Put it at the top of the Q1 list, with Priya owning it.
                """
            )
        ),
    ],
)

S10 = Session(
    "2025-12-01T08:05:00Z",
    [
        u(
            w(
                r"""
                We had our first real outage on the new platform. Friday 2025-11-28, tracking-api started
                returning 500s at 06:40 UTC, right in the morning ramp. Opsgenie paged the on-call at 06:52
                (the alert needs 5% errors for 10 minutes, we'll talk about that), acknowledged at 06:54.
                Pods were at 14, the HPA maximum. Logs from every pod:

                ```
                2025-11-28T06:41:07.512Z error tracking-api db pool: failed to acquire connection
                error: remaining connection slots are reserved for non-replication superuser connections
                    at Parser.parseErrorMessage (/app/node_modules/pg-protocol/dist/parser.js:283:98)
                    at Parser.handlePacket (/app/node_modules/pg-protocol/dist/parser.js:122:29)
                2025-11-28T06:41:07.530Z warn  tracking-api GET /shipments/NL8834120977/events 500 5003ms
                ```

                Mitigated at 07:35 UTC by setting the HPA maximum to 8 by hand and restarting the pods.
                Jonas, on his first week, found this on RDS while we were on the call:

                ```
                tracking=> SHOW max_connections;
                 max_connections
                -----------------
                 200
                ```

                Somebody — me — copied the parameter group values from the old postgresql.conf.
                """
            ),
            key="pm-outage",
        ),
        a(
            w(
                r"""
                Sorry about the Friday morning. The arithmetic explains it completely:

                | Source | Connections |
                |---|---|
                | tracking-api pods at HPA max | 14 |
                | × `poolMax` per pod (values-prod.yaml) | 20 |
                | = possible app connections | **280** |
                | hourly purge CronJob | up to 20 |
                | RDS reserved for superuser (`superuser_reserved_connections`) and rdsadmin | ~5 |
                | **`max_connections` on RDS** | **200** |

                At 06:40 UTC the morning ramp pushed the HPA up; somewhere around the 10th pod the pools
                together asked for more than 195 connections and every new connection attempt failed with
                exactly the error you pasted. Worse, Node's `pg` pool doesn't fail *one* request when it can't
                connect — every request waiting for a connection waits up to the acquire timeout (5 s in your
                log), so latency went up, CPU stayed high, and the HPA read that as "add more pods", which
                asked for even more connections. A feedback loop, and it stopped only when you capped the
                pods below the limit.

                The VM setup never hit this because two VMs with a pool of 20 each only ever opened 40
                connections; the old `max_connections = 200` was generous for that world and became a
                ceiling in this one. That's not a "you" mistake so much as a missing check: nobody multiplied
                HPA max by pool size, and the chart didn't make it visible.

                Do you want options for the fix, or shall I go straight to a postmortem draft?
                """
            )
        ),
        u("Options first. Annika will ask what we're doing about it before she asks what happened."),
        a(
            w(
                r"""
                Three layers, from quick to structural.

                **Today — make the numbers fit.**

                ```yaml
                # charts/tracking-api/values-prod.yaml
                autoscaling:
                  minReplicas: 4
                  maxReplicas: 14
                  targetCPU: 65
                  behavior:
                    scaleUp:
                      stabilizationWindowSeconds: 60
                      policies:
                        - type: Pods
                          value: 2
                          periodSeconds: 60
                resources:
                  cpu: 500m
                  memory: 384Mi
                database:
                  host: tracking-prod.cluster-placeholder.eu-central-1.rds.amazonaws.com
                  poolMax: 10
                  acquireTimeoutMs: 1000
                ```

                ```hcl
                # infra/rds_tracking.tf — parameters
                parameters = [
                  { name = "rds.logical_replication", value = "1", apply_method = "pending-reboot" },
                  { name = "max_connections", value = "400", apply_method = "pending-reboot" },
                ]
                ```

                14 × 10 = 140 app connections against 400 leaves room for the purge job, migrations, a psql
                session during an incident, and growth. A db.m6g.large has 8 GiB; 400 connections is fine for
                it. `max_connections` needs a reboot — on Multi-AZ that's a failover of roughly a minute,
                so do it in the 03:00 UTC quiet hour. The `behavior` block limits scale-up to two pods a minute,
                which breaks the feedback loop's speed even if something else goes wrong. The shorter acquire
                timeout makes requests fail fast instead of piling up.

                **This quarter — make it impossible to miss.** A check in the chart that fails the render
                when the pool could exceed the budget:

                ```yaml
                # charts/tracking-api/templates/_checks.tpl
                {{- $total := mul .Values.autoscaling.maxReplicas .Values.database.poolMax -}}
                {{- if gt (int $total) (int .Values.database.connectionBudget) -}}
                {{- fail (printf "maxReplicas × poolMax = %d exceeds database.connectionBudget %d" $total (int .Values.database.connectionBudget)) -}}
                {{- end -}}
                ```

                with `connectionBudget: 300` in values-prod.yaml.

                **Q1 — decouple pods from connections.** RDS Proxy (managed, ~€20/month for this instance
                size) or PgBouncer in the cluster. Either way the pods connect to a pooler and the database
                sees a steady number of connections regardless of replica count. For a customer-facing
                service that scales, this is the real fix.

                **And the alert.** 5% errors for 10 minutes meant 12 minutes from first error to page. For
                tracking-api in the morning I'd page on 2% for 3 minutes, using the ALB's 5xx metrics.
                """
            )
        ),
        u(
            w(
                r"""
                Doing the first two now, Priya's on the values change, Jonas the parameter group. RDS Proxy
                in Q1, Dagny wants it. Now the postmortem, please. We do blameless, and Annika wants it by
                Wednesday. The timeline: 06:40 first errors, 06:52 page, 06:54 ack, 07:05 on-call pulls in me
                and Jonas, 07:20 Jonas finds max_connections, 07:35 HPA capped at 8 and pods restarted, 07:41
                error rate back to normal. Customer service says the website showed "tracking unavailable"
                for most of that time.
                """
            )
        ),
        a(
            w(
                r"""
                # Postmortem: tracking-api outage 2025-11-28

                **Status:** draft for review | **Author:** platform team | **Severity:** SEV-2 (customer-facing,
                degraded, no data loss)

                ## Summary

                On 2025-11-28 between 06:40 and 07:41 UTC (61 minutes), tracking-api returned errors for a
                large share of requests during the weekday morning peak. Customers and depots saw "tracking
                unavailable" on the website and in the customer service tool. The cause was a mismatch
                between the number of database connections the autoscaled application could open and the
                connection limit of its new database. No data was lost and no invoices or routes were
                affected.

                ## Impact

                - 61 minutes of elevated errors on tracking-api, peaking at roughly 60% of requests.
                - Website shipment tracking unavailable for most of the period.
                - Customer service tool degraded for the same period.

                ## Timeline (UTC)

                | Time | Event |
                |---|---|
                | 06:40 | Morning traffic ramp; HPA scales tracking-api up; first connection errors |
                | 06:52 | Opsgenie pages the on-call engineer (alert: 5% errors over 10 minutes) |
                | 06:54 | Page acknowledged |
                | 07:05 | On-call brings in a second platform engineer and the contractor |
                | 07:20 | RDS `max_connections` found to be 200 |
                | 07:35 | HPA maximum set to 8 by hand; pods restarted |
                | 07:41 | Error rate back to normal |

                ## Root cause

                The RDS parameter group for the tracking database was created with `max_connections = 200`,
                copied from the colo server's configuration, where two VMs opened at most 40 connections. On
                Kubernetes, each tracking-api pod holds a pool of up to 20 connections and the HPA allows 14
                pods: up to 280 connections, more than the database would accept. When the morning ramp
                scaled the deployment past roughly 10 pods, new connections were refused; waiting requests
                raised CPU, the HPA added pods, and the pods asked for yet more connections.

                ## Contributing factors

                - No check relates HPA maximum × pool size to the database limit.
                - The load test (2025-11-20) ran against staging with 11 pods and a staging pool of 5, so it never
                  reached the limit.
                - The alert threshold (5% for 10 minutes) delayed the page by 12 minutes.
                - The pool's 5-second acquire timeout made requests queue rather than fail fast.

                ## What went well

                - The page was acknowledged within two minutes.
                - Bringing in help early found the cause in 15 minutes.
                - The rollback lever (capping replicas) was quick and safe.

                ## Action items

                | # | Action | Owner | Due |
                |---|---|---|---|
                | 1 | `poolMax` 20 → 10, acquire timeout 1 s, scale-up rate limit | Priya | 2025-12-02 |
                | 2 | RDS `max_connections` 200 → 400 (reboot at 03:00 UTC) | Jonas | 2025-12-03 |
                | 3 | Chart check: maxReplicas × poolMax ≤ connection budget | Priya | 2025-12-12 |
                | 4 | Page on 2% 5xx for 3 minutes during 05:00–10:00 UTC | Dagny | 2025-12-05 |
                | 5 | Load tests use prod-equivalent pool sizes and database limits | platform | next load test |
                | 6 | RDS Proxy in front of tracking database | Dagny | Q1 2026 |
                | 7 | Review every migrated parameter group for copied limits | Jonas | 2025-12-12 |

                ## Lessons

                Moving a service from a fixed number of machines to an autoscaled one turns every "per
                instance" setting into a multiplier. Limits that were generous for two VMs can be ceilings
                for fourteen pods.
                """
            ),
            key="pm-postmortem",
        ),
        u(
            "That's good. One correction: customer service logged 37 phone calls about it, put that in the "
            "impact. And don't name the contractor as 'the contractor', he's part of the team — just say "
            "'two more engineers'."
        ),
        a(
            w(
                r"""
                Both fair. The changed lines:

                ## Impact

                - 61 minutes of elevated errors on tracking-api, peaking at roughly 60% of requests.
                - Website shipment tracking unavailable for most of the period.
                - Customer service tool degraded for the same period; customer service logged 37 phone calls about
                  tracking.

                And in the timeline:

                | 07:05 | On-call brings in two more engineers |

                Everything else stands. If Annika wants a shorter version for the ops managers, the summary
                paragraph plus the action table is usually enough.
                """
            )
        ),
        u(
            "Why didn't the load test catch it? I keep thinking about that. 2,400 rps should have been worse "
            "than Friday."
        ),
        a(
            w(
                r"""
                Because the load test tested the application and the autoscaler, not the connection maths,
                and staging had different multipliers for the part that failed:

                | | Load test (staging) | Friday (prod) |
                |---|---|---|
                | Pods | up to 11 | 14 |
                | `poolMax` | 5 | 20 |
                | Max app connections | 55 | 280 |
                | Database `max_connections` | default for db.t4g.medium (~410) | 200 (copied) |

                Staging could never come near its limit; prod could exceed it by 40%. 2,400 rps was a harsher
                test of CPU and latency, which it passed; it said nothing about the connection ceiling. The
                general rule is that a load test is only as good as the *configuration* similarity, not just
                the traffic volume — which is action item 5. Using the same values file structure for both
                environments helps: the difference in `poolMax` is sitting right there in two files.
                """
            )
        ),
    ],
)

S11 = Session(
    "2025-12-09T09:30:00Z",
    [
        u(
            w(
                r"""
                invoice-sync went live on 2025-12-04, so that's four of the five on EKS. And of course the
                first night it fell over. The heartbeat worked as designed — Opsgenie alerted the next night
                when no ping had arrived, which was too late, as you said it would be, but finance only
                noticed at 08:30 UTC anyway. Here's what the job looked like:

                ```
                $ kubectl describe job invoice-sync-29418555 --namespace prod
                ...
                Pods Statuses:  0 Active (0 Ready) / 0 Succeeded / 2 Failed
                Events:
                  Type     Reason                Age   From            Message
                  ----     ------                ----  ----            -------
                  Normal   SuccessfulCreate      7h    job-controller  Created pod: invoice-sync-29418555-7kq2d
                  Normal   SuccessfulCreate      7h    job-controller  Created pod: invoice-sync-29418555-m9x4t
                  Warning  BackoffLimitExceeded  6h    job-controller  Job has reached the specified backoff limit

                $ kubectl get pod invoice-sync-29418555-m9x4t --namespace prod --output jsonpath='{.status.containerStatuses[0].lastState}'
                {"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2025-12-05T01:31:02Z","finishedAt":"2025-12-05T01:48:40Z"}}
                ```

                It was the first run after month end, so it had about 11,000 invoices instead of the usual
                4,000. We bumped the limit to 1536Mi by hand and reran it at 09:00 UTC, it went through.
                """
            ),
            key="pm-svc-inv",
        ),
        a(
            w(
                r"""
                Exit code 137 with `OOMKilled` is the kernel killing the process for crossing the 512Mi
                limit, and 11,000 invoices against 4,000 explains why the VM number (400 MB) was a typical
                night rather than the worst one. Two things to do, one quick and one proper.

                **Quick: make the values match the worst night, not the average.** Month-start runs are
                predictable, so size for them:

                ```yaml
                # charts/invoice-sync/values-prod.yaml
                resources:
                  requests:
                    cpu: 250m
                    memory: 1536Mi
                  limits:
                    memory: 1536Mi
                ```

                (The CronJob template needs to read `resources` from values rather than hard-coding them —
                replace the `resources:` block in `cronjob.yaml` with
                `resources: {{- toYaml .Values.resources | nindent 18 }}`.)

                **Proper: stop the memory scaling with the number of invoices.** A batch job whose memory
                grows linearly with its input will fall over again in December's year-end run. The usual
                culprit in a Python export is loading the whole result set at once — `cursor.fetchall()` or
                a pandas `read_sql` — and then building every API payload in a list before sending any of
                them. If you can get Jonas to check how the ERP query is read, I can show the streaming
                version.

                Also worth noticing: the second pod (the retry allowed by `backoffLimit: 1`) failed the same
                way 17 minutes in, which is what you'd expect from a deterministic failure. Did the first
                attempt post any invoices before it died? If `--since-last-run` only records progress at the
                end, the rerun at 09:00 UTC may have re-posted some. Worth asking finance to check for
                duplicates from the night of 2025-12-04.
                """
            )
        ),
        u(
            "Jonas checked: it's `rows = cursor.fetchall()` and then a list comprehension building all the "
            "payloads. And no duplicates — the finance API rejects an invoice number it already has, which "
            "is the only reason we're not in trouble."
        ),
        a(
            w(
                r"""
                Then the finance API's idempotency saved you, and it's worth writing that down as a
                dependency: invoice-sync is only safe to retry *because* the finance side deduplicates.

                The streaming version reads rows in batches through a server-side cursor and posts each batch
                before reading the next, so memory stays flat however many invoices there are. With psycopg2:

                ```python
                # invoice_sync/export.py
                import logging
                from collections.abc import Iterator

                import psycopg2
                import psycopg2.extras

                from invoice_sync import finance

                log = logging.getLogger(__name__)

                BATCH_SIZE = 500

                QUERY = (
                    "SELECT invoice_no, customer_id, issued_at, currency, total_net, total_vat, lines_json"
                    " FROM erp.invoices"
                    " WHERE issued_at > %(since)s AND status = 'final'"
                    " ORDER BY issued_at, invoice_no"
                )


                def invoice_batches(dsn: str, since) -> Iterator[list[dict]]:
                    with psycopg2.connect(dsn) as conn:
                        # a named cursor is server-side: rows arrive itersize at a time
                        with conn.cursor(name="invoice_export", cursor_factory=psycopg2.extras.RealDictCursor) as cur:
                            cur.itersize = BATCH_SIZE
                            cur.execute(QUERY, {"since": since})
                            while True:
                                rows = cur.fetchmany(BATCH_SIZE)
                                if not rows:
                                    return
                                yield rows


                def run_export(dsn: str, since) -> int:
                    exported = 0
                    for batch in invoice_batches(dsn, since):
                        payloads = [finance.to_payload(row) for row in batch]
                        result = finance.post_invoices(payloads)
                        exported += result.accepted
                        if result.duplicates:
                            log.info("finance rejected %d duplicates (already posted)", result.duplicates)
                        finance.record_progress(batch[-1]["issued_at"])
                    return exported
                ```

                Three details that matter:

                - The named cursor is what makes this streaming; an unnamed psycopg2 cursor fetches the entire result
                  into client memory on `execute`, even if you then call `fetchmany`.
                - `record_progress` after every batch means a crash at invoice 8,000 resumes at 8,000, not at 0 — so the
                  retry no longer relies on the finance side's deduplication alone.
                - `ORDER BY issued_at, invoice_no` makes the progress marker meaningful.

                With this, 1536Mi is far more than needed; keep it until a month-start run has gone through,
                then bring it back to 512Mi.
                """
            )
        ),
        u(
            w(
                r"""
                Nice, Jonas is on it. Now a happier number: the November bill. Cluster side came in at
                €1,980 for the month, and that's with the tracking RDS in it for the last week. The endpoint,
                Graviton and Tomasz's log level did their job. Annika forwarded it to the finance controller
                with a smiley, which is the first time anyone from finance has received a cloud bill with a
                smiley.
                """
            ),
            key="pm-cost-nov",
        ),
        a(
            w(
                r"""
                That's a good result, and a defensible one: it's within shouting distance of the original
                estimate even though the estimate assumed all four services and RDS for a full month.

                Where I'd expect December to land, roughly, from the weekly reports you've been getting:

                | Line | November | December (expected) | Why it moves |
                |---|---|---|---|
                | Nodes (m7g.large) | lower than October | similar | Graviton, fewer nodes after the graph stopped pulling through NAT |
                | NAT data processing | small | small | S3 endpoint |
                | RDS tracking (Multi-AZ) | one week | full month | +€200–250 |
                | CloudWatch Logs | lower | similar | INFO level, 14-day retention |
                | invoice-sync | — | a few euros | 20 minutes of pod time a night |

                So December will probably come in a bit higher than November because of a full month of
                RDS, and that's expected rather than a regression — worth telling the controller before the
                bill does.

                Now that usage is stable, a **Compute Savings Plan** would take roughly 20–25% off the node
                cost for a one-year, no-upfront commitment. I'd size it at about 70% of your current steady
                node spend, so the commitment is always fully used even when Karpenter (next quarter) packs
                things tighter. For RDS, reserved instances work the same way, but wait until the RDS Proxy
                decision, since that could change the instance size.
                """
            )
        ),
        u(
            "Annika wants to wait with the Savings Plan until Marcus is back in February, it's his budget. "
            "The postmortem review is Thursday 2025-12-11, in person in Rotterdam, 10:00 to 11:30 UTC. Can "
            "you give me an agenda? Annika, Dagny, Priya, Jonas, Tomasz, me, and someone from customer "
            "service."
        ),
        a(
            w(
                r"""
                # Postmortem review: tracking-api outage 2025-11-28

                **When:** 2025-12-11, 10:00–11:30 UTC, Rotterdam office
                **Attendees:** Annika (chair), Dagny, Priya, Jonas, Tomasz, customer service representative, you
                (facilitator)
                **Pre-read:** the postmortem document, circulated by 2025-12-09

                | Time (UTC) | Item | Lead |
                |---|---|---|
                | 10:00–10:05 | Purpose and ground rules: blameless, focus on the system, decisions at the end | Annika |
                | 10:05–10:20 | What customers and customer service experienced (the 37 calls, what the website showed) | Customer service |
                | 10:20–10:40 | Timeline walk-through, questions on each step | You |
                | 10:40–11:00 | Root cause and contributing factors: why the numbers didn't fit, why the load test didn't catch it | Priya, Jonas |
                | 11:00–11:15 | Action items: status of the ones already done, owners and dates for the rest | Dagny |
                | 11:15–11:25 | What we change in how we migrate the remaining services | All |
                | 11:25–11:30 | Decisions and follow-ups recorded | Annika |

                A few facilitation notes:

                - Start with customer service, not the timeline. It sets the stakes before anyone gets technical and
                  gives the people outside platform a reason to stay engaged.
                - When the parameter group comes up, say it was you, once, plainly, and move on. It makes it easy for
                  everybody else to talk about their part.
                - Items 1 and 2 (pool size, `max_connections`) should already be done by Thursday; reporting them as
                  done is the most reassuring thing Annika can hear.
                - Keep item 11:15 concrete: "every migration checklist now has a line for per-instance limits × max
                  replicas" is a decision; "we'll be more careful" isn't.
                """
            )
        ),
        u(
            w(
                r"""
                Perfect. Jonas has done his depot-portal assessment. PHP 7.4, MySQL 5.7 on the same VM,
                about 40 users (depot managers), the licensed PDF component is bound to the VM's MAC address
                and the vendor is a two-person company in Ghent that takes a week to answer an email. Nobody
                wants to touch the PHP. His suggestion: don't containerise it at all this round. Thoughts?
                """
            )
        ),
        a(
            w(
                r"""
                I agree with Jonas. Containerising it buys you nothing except risk: the licence check
                would see a new MAC on every pod restart, PHP 7.4 is out of security support anyway so any
                image you build is a liability you'd be signing, and 40 internal users don't need
                autoscaling. The colo deadline is the only hard constraint, so the question is just where it
                lives after March.

                | Option | Licence | Effort | Risk | Notes |
                |---|---|---|---|---|
                | Container on EKS | MAC changes with every pod | High | High | PHP 7.4 image, MySQL 5.7 into RDS or a StatefulSet |
                | Lift-and-shift to EC2 (VM import) | Needs the vendor to re-key once | Low | Low | One instance, one ENI with a fixed MAC |
                | Rebuild on EC2 from scratch | Same as above | Medium | Medium | Clean OS, same PHP |
                | Replace the application | N/A | Very high | Medium | The real long-term answer, not this quarter |

                The trick that makes EC2 work: on AWS the MAC address belongs to the **network interface
                (ENI)**, not the instance. Create a standalone ENI in Terraform, attach it as the primary
                interface of the instance, and its MAC stays the same across stops, starts, instance type
                changes, even replacing the instance — as long as the ENI itself lives. The vendor re-keys the
                licence once for that MAC and never again.

                So: ask the vendor now (given their email speed) whether they'll issue a licence for a new
                MAC, and meanwhile Jonas can import the VM image with VM Import/Export into a staging
                instance to see whether it even boots.
                """
            )
        ),
        u("The vendor answered in two days, a record. They'll re-key once for free as long as the MAC then stays put."),
        a(
            w(
                r"""
                Then here's the Terraform for it, with the ENI kept separate so it outlives the instance:

                ```hcl
                # infra/depot_portal.tf
                resource "aws_network_interface" "depot_portal" {
                  subnet_id       = module.vpc.private_subnets[0]
                  private_ips     = ["10.40.10.50"]
                  security_groups = [aws_security_group.depot_portal.id]
                  description     = "depot-portal primary ENI - licence bound to this MAC, do not delete"
                  tags = {
                    Name = "depot-portal"
                  }
                  lifecycle {
                    prevent_destroy = true
                  }
                }

                resource "aws_instance" "depot_portal" {
                  ami           = var.depot_portal_ami   # from VM Import
                  instance_type = "t3.medium"

                  network_interface {
                    network_interface_id = aws_network_interface.depot_portal.id
                    device_index         = 0
                  }

                  root_block_device {
                    volume_type = "gp3"
                    volume_size = 80
                    encrypted   = true
                  }

                  metadata_options {
                    http_tokens = "required"
                  }

                  tags = {
                    Name = "depot-portal"
                  }
                }

                resource "aws_security_group" "depot_portal" {
                  name   = "depot-portal"
                  vpc_id = module.vpc.vpc_id

                  ingress {
                    description = "HTTPS from depots and office"
                    from_port   = 443
                    to_port     = 443
                    protocol    = "tcp"
                    cidr_blocks = ["10.31.0.0/24", "10.32.0.0/24", "10.33.0.0/24", "10.99.0.0/24"]
                  }

                  egress {
                    from_port   = 0
                    to_port     = 0
                    protocol    = "-1"
                    cidr_blocks = ["0.0.0.0/0"]
                  }
                }

                output "depot_portal_mac" {
                  value = aws_network_interface.depot_portal.mac_address
                }
                ```

                Run `terraform apply` with only the ENI first (`-target=aws_network_interface.depot_portal`),
                send the vendor the `depot_portal_mac` output, and build the instance while they re-key.
                `t3.medium` rather than Graviton because the PDF component is almost certainly an x86 binary.
                The fixed private IP means the depots can keep a bookmark or a static DNS record.

                `prevent_destroy` on the ENI is doing the same job as on the state bucket: the single most
                expensive mistake here would be a refactor that recreates it.
                """
            )
        ),
        u(
            "Last thing today: finance want a short note that the invoice problem is fixed and won't happen "
            "at year end. Plain language, they're not technical. Three or four sentences."
        ),
        a(
            w(
                r"""
                Here you go:

                > On the night of 2025-12-04 the invoice export stopped partway through because it ran out of
                > memory on the first run after month end, when there were almost three times as many invoices
                > as usual. We reran it the same morning and every invoice reached the finance system; none were
                > sent twice. We have since changed the export so it handles invoices in small batches, which
                > keeps its memory use the same however many invoices there are, including at year end. It also
                > now alerts the platform team directly if a nightly run doesn't complete.

                If finance would find it useful, add who to contact — "questions to the platform on-call via
                the usual Opsgenie address" — so they don't have to ask around next time.
                """
            )
        ),
    ],
)

S12 = Session(
    "2025-12-16T13:20:00Z",
    [
        u(
            w(
                r"""
                The postmortem review went well. Customer service going first was the right call — the
                woman from the call centre described what a customer with a missing pallet says on the phone
                and suddenly nobody was defensive about anything. Annika closed it with three decisions, all
                on the action list already.

                Now I need to plan Q1 before the holidays. What's on my list: the GitLab runners (still in
                Almere, and the rack goes in March), depot-portal onto EC2, RDS Proxy, Karpenter, and
                eventually splitting prod into its own AWS account. Jonas is here until 2026-01-23. Can you
                turn that into a plan with an order and rough weeks?
                """
            )
        ),
        a(
            w(
                r"""
                The colo exit date drives the order: anything still in Almere on the last day of March is
                an emergency, everything else is an improvement. So the runners and depot-portal come first,
                and the improvements follow.

                # Platform Q1 2026 plan

                | Weeks | Work | Owner | Depends on | Done when |
                |---|---|---|---|---|
                | 2026-01-05 → 01-16 | GitLab runners onto EKS (Kubernetes executor) | you | — | All pipelines run on EKS runners; Almere runners stopped |
                | 2026-01-05 → 01-23 | depot-portal onto EC2 with the fixed ENI, vendor re-key | Jonas | Vendor licence | Depot managers use it for a week; VM off |
                | 2026-01-12 → 01-30 | RDS Proxy for tracking database | Dagny | — | tracking-api connects through the proxy; connection count flat under load |
                | 2026-01-19 → 02-13 | Karpenter replaces the managed node group autoscaling | Priya | Runners moved (they add bursty load worth testing against) | Node count follows load; cost report shows the saving |
                | 2026-02-02 → 02-27 | Decommission: snapshot, wipe and return every VM in the rack | you + Dagny | Everything above | Rack empty; colo confirms |
                | 2026-02-16 → 03-27 | Prod into its own AWS account (second cluster, same Terraform modules) | Priya + you | Karpenter settled | Prod workloads on the new account; staging alone on the old cluster |
                | 2026-03-31 | Colo contract ends | — | — | — |

                Reasoning for a few choices:

                - **Runners first** because they touch every deploy; if they break in week one you have eleven weeks to
                  recover, and every other item in this plan needs working pipelines.
                - **depot-portal with Jonas** because it's bounded and his contract ends 2026-01-23; it shouldn't be the
                  thing left half-done when he leaves.
                - **The account split last.** It's the largest change and the least urgent; if Q1 slips, it's the item
                  that moves to Q2 without anything in Almere being at risk.
                - **Savings Plan** isn't in the table because it's a decision for Marcus in February, not work; put it
                  on his return agenda with the three months of weekly cost reports as evidence.

                Leave two weeks of nothing in March. Something will need it.
                """
            )
        ),
        u(
            "Agreed on all of it. Let's do the runners now then, while I have the energy. We're on GitLab "
            "17.5. I want the runner in its own namespace, jobs in another, and no job able to run privileged "
            "containers — kaniko already builds without it."
        ),
        a(
            w(
                r"""
                Install the official `gitlab-runner` chart into `gitlab-runner`, with jobs scheduled into
                `ci-jobs`. The full values file:

                ```yaml
                # platform/gitlab-runner/values.yaml
                gitlabUrl: https://gitlab.brannock.nl/
                runnerToken: ""   # from an ExternalSecret, see below
                concurrent: 10
                checkInterval: 5
                logLevel: info

                rbac:
                  create: true

                podLabels:
                  team: platform
                  cost-centre: ops-4471

                runners:
                  secret: gitlab-runner-token
                  config: |
                    [[runners]]
                      name = "eks-brannock"
                      executor = "kubernetes"
                      [runners.kubernetes]
                        namespace = "ci-jobs"
                        privileged = false
                        allow_privilege_escalation = false
                        cpu_request = "500m"
                        memory_request = "1Gi"
                        memory_limit = "4Gi"
                        helper_cpu_request = "50m"
                        helper_memory_request = "64Mi"
                        service_account = "ci-job"
                        poll_timeout = 600
                        [runners.kubernetes.pod_labels]
                          team = "platform"
                          "cost-centre" = "ops-4471"
                          "ci-project" = "$CI_PROJECT_NAME"
                        [runners.kubernetes.node_selector]
                          "kubernetes.io/arch" = "amd64"
                      [runners.cache]
                        Type = "s3"
                        Shared = true
                        [runners.cache.s3]
                          ServerAddress = "s3.amazonaws.com"
                          BucketName = "brannock-ci-cache-euc1"
                          BucketLocation = "eu-central-1"
                          AuthenticationType = "iam"

                resources:
                  requests:
                    cpu: 100m
                    memory: 128Mi
                  limits:
                    memory: 256Mi
                ```

                And the token, from Secrets Manager as with the carrier certificate:

                ```yaml
                # platform/gitlab-runner/externalsecret.yaml
                apiVersion: external-secrets.io/v1beta1
                kind: ExternalSecret
                metadata:
                  name: gitlab-runner-token
                  namespace: gitlab-runner
                  labels:
                    team: platform
                    cost-centre: ops-4471
                spec:
                  refreshInterval: 1h
                  secretStoreRef:
                    kind: ClusterSecretStore
                    name: aws-secrets-manager
                  target:
                    name: gitlab-runner-token
                  data:
                    - secretKey: runner-registration-token
                      remoteRef:
                        key: ci/gitlab-runner
                        property: token
                    - secretKey: runner-token
                      remoteRef:
                        key: ci/gitlab-runner
                        property: token
                ```

                ```bash
                helm repo add gitlab https://charts.gitlab.io
                helm upgrade --install gitlab-runner gitlab/gitlab-runner \
                  --namespace gitlab-runner --create-namespace \
                  --version 0.70.3 \
                  --values platform/gitlab-runner/values.yaml
                ```

                Notes:

                - With GitLab 17.x, create the runner in the UI (Admin → Runners → New instance runner) to get an
                  authentication token starting with `glrt-`; the old registration tokens are deprecated.
                - `node_selector` on amd64 for now, because Tomasz's multi-arch builds use a dedicated arm64 runner;
                  once buildx cross-builds from one runner, drop it.
                - Pin the chart version (0.70.3 matches GitLab 17.5); runner and GitLab should stay within a minor
                  version of each other.
                - The job pods get their own `ci-job` ServiceAccount with no Kubernetes permissions, and an IAM role for
                  ECR push and the cache bucket only.
                - A ResourceQuota on `ci-jobs` stops a runaway pipeline from eating the nodes that tracking-api needs at
                  06:00 UTC.
                """
            )
        ),
        u(
            w(
                r"""
                Installed in staging mode (only picks up jobs tagged `eks`). Priya asked something while
                reviewing: the three charts have almost identical `_helpers.tpl` files, the labels block is
                copy-pasted, and when finance changes the cost centre we'd have to edit it everywhere. Can we
                pull that into something shared?
                """
            )
        ),
        a(
            w(
                r"""
                Yes — that's what a Helm **library chart** is for: a chart with only `define` blocks, which
                the service charts depend on. Nothing from it is rendered by itself.

                ```yaml
                # charts/brannock-common/Chart.yaml
                apiVersion: v2
                name: brannock-common
                description: Shared labels and helpers for Brannock service charts
                type: library
                version: 1.0.0
                ```

                ```yaml
                # charts/brannock-common/templates/_labels.tpl
                {{- define "brannock.labels" -}}
                app.kubernetes.io/name: {{ .Chart.Name }}
                app.kubernetes.io/instance: {{ .Release.Name }}
                app.kubernetes.io/version: {{ .Values.image.tag | quote }}
                app.kubernetes.io/managed-by: {{ .Release.Service }}
                team: {{ .Values.global.team | default "platform" }}
                cost-centre: {{ .Values.global.costCentre | default "ops-4471" }}
                {{- end }}

                {{- define "brannock.selector" -}}
                app.kubernetes.io/name: {{ .Chart.Name }}
                app.kubernetes.io/instance: {{ .Release.Name }}
                {{- end }}

                {{- define "brannock.image" -}}
                {{ .Values.image.repository }}:{{ required "image.tag must be set to a commit SHA" .Values.image.tag }}
                {{- end }}
                ```

                Each service chart then declares the dependency:

                ```yaml
                # charts/route-planner/Chart.yaml
                apiVersion: v2
                name: route-planner
                description: Daily and on-demand truck route planning
                type: application
                version: 0.2.0
                appVersion: "2025.12"
                dependencies:
                  - name: brannock-common
                    version: 1.0.0
                    repository: file://../brannock-common
                ```

                and its templates change from `include "route-planner.labels" .` to
                `include "brannock.labels" .`, and the image line to
                `image: {{ include "brannock.image" . | quote }}`. Delete the old `_helpers.tpl`.

                ```bash
                helm dependency update charts/route-planner
                helm template route-planner charts/route-planner --values charts/route-planner/values-prod.yaml \
                  --set image.tag=test > /tmp/after.yaml
                ```

                Render before and after and diff them: the only change should be the extra
                `app.kubernetes.io/managed-by` label. One thing to avoid: don't change the **selector**
                labels in the process — a Deployment's `spec.selector` is immutable, and a changed selector
                means deleting and recreating the Deployment. The `brannock.selector` block above produces
                exactly what the old per-chart selectors did, since `.Chart.Name` equals the name they had
                hard-coded.

                If the cost centre ever changes, it's one line in `brannock-common` and a version bump.
                """
            )
        ),
        u(
            "Tomasz wants to be able to look at prod pods and logs himself without asking us, but not change "
            "anything. Same for Femke on label-gateway. What's the cleanest way on EKS these days?"
        ),
        a(
            w(
                r"""
                EKS **access entries** (the replacement for the `aws-auth` ConfigMap) plus a namespaced
                read-only policy. The EKS module supports them directly:

                ```hcl
                # infra/main.tf — inside module "eks"
                access_entries = {
                  developers = {
                    principal_arn = "arn:aws:iam::123456789012:role/brannock-developers"
                    policy_associations = {
                      prod_view = {
                        policy_arn = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy"
                        access_scope = {
                          type       = "namespace"
                          namespaces = ["prod", "staging"]
                        }
                      }
                    }
                  }
                }
                ```

                `AmazonEKSViewPolicy` gives read access to most objects — pods, deployments, events, and pod
                logs — but **not Secrets**, which is what you want. Tomasz and Femke get the
                `brannock-developers` role through your SSO, and their kubeconfig via:

                ```bash
                aws eks update-kubeconfig --name brannock-staging --region eu-central-1 \
                  --role-arn arn:aws:iam::123456789012:role/brannock-developers --alias brannock-readonly
                ```

                They can then `kubectl logs`, `kubectl describe` and `kubectl get events` in both namespaces,
                and `exec` and `port-forward` are refused. If Tomasz later needs `port-forward` to reach
                actuator on 8081 in prod, that's a small custom Role granting `create` on `pods/portforward`,
                scoped to the `prod` namespace — add it when he asks, not before.
                """
            )
        ),
        u(
            "Good. I also need a checklist for actually switching off a VM in the rack. Dagny and I will do "
            "them in February, and I don't want us improvising fifteen times."
        ),
        a(
            w(
                r"""
                # VM decommission checklist

                One copy per VM, ticked in the ticket. Do them in the order at the bottom.

                **Before (at least a week after the service moved)**

                - [ ] The service has run on its new home for 7+ days without a rollback.
                - [ ] No connections to the VM in the last 7 days except monitoring and backups: check `ss --tcp
                      --numeric` snapshots, HAProxy stats, the FortiGate session log.
                - [ ] Crontabs empty or migrated (compare against Ruben's list).
                - [ ] No DNS records point at the VM (`brannock.local` and public zones).
                - [ ] No firewall rules reference the VM's IP, or they're listed for removal.
                - [ ] Certificates on the VM: none still in use elsewhere.

                **Keep**

                - [ ] Final backup or VM snapshot exported to S3 (`s3://brannock-colo-archive/<vm-name>/`), with a
                      Glacier lifecycle rule and 1-year retention.
                - [ ] Any data the business must keep (invoices, logs under retention) is confirmed in the archive, and
                      someone from the owning team has said so in writing.

                **Off**

                - [ ] Power off (don't delete) — wait 7 days with it off.
                - [ ] Nobody shouted in 7 days → delete from vCenter, remove from monitoring, remove firewall rules and
                      DNS.
                - [ ] Remove from the Ansible inventory and the CMDB.
                - [ ] Licences (VMware, OS, the PDF component on depot-portal) recorded as freed.

                **Suggested order**

                1. route-planner VMs (moved longest ago)
                2. label-gateway VM
                3. tracking-api VMs and the colo Postgres (archive the final dump)
                4. invoice-sync VM
                5. depot-portal VM (after Jonas's EC2 move)
                6. GitLab runner VMs
                7. Infrastructure VMs last: DNS, monitoring, the FortiGate and the VPN — the tunnels are how you reach
                   everything else until the end

                The "power off and wait a week" step is the one people skip under deadline pressure and it's
                the one that finds the forgotten dependency while it's still a switch flip to fix.
                """
            )
        ),
        u(
            "I'm off from 2025-12-22 until 2026-01-05, properly off, no laptop. Dagny's covering the platform "
            "side, Priya has on-call over Christmas, she volunteered, which I'm very grateful for."
        ),
        a(
            w(
                r"""
                Good — a real break after a quarter like this one. A short handover note for Dagny saves her
                from guessing, something like:

                - **In flight:** runners on EKS in staging mode (tag `eks` only) — leave as is; depot-portal ENI
                  created, waiting for the vendor's licence.
                - **Watch:** invoice-sync runs at 01:15 UTC; the first run of January (after year end) is the big one.
                  The heartbeat will alert if it doesn't finish.
                - **Don't:** no cutovers, no node group changes, no Terraform applies to prod except to fix an incident.
                - **Who to call:** Tomasz for route-planner, Femke for label-gateway, Jonas knows the invoice-sync
                  changes, Annika for anything that needs a decision.

                And a thank-you to Priya in a place Annika can see it, not just in a DM.
                """
            )
        ),
        u(
            "One more before I go: how do I see what changed between two Helm releases of a chart? Tomasz asked "
            "and I didn't know offhand."
        ),
        a(
            w(
                r"""
                Three ways, from built-in to nicest:

                ```bash
                # list revisions, with dates and chart versions
                helm history route-planner --namespace prod

                # the values each revision was installed with
                helm get values route-planner --namespace prod --revision 7 > /tmp/r7.yaml
                helm get values route-planner --namespace prod --revision 8 > /tmp/r8.yaml
                diff --unified /tmp/r7.yaml /tmp/r8.yaml

                # the full rendered manifests of each revision
                helm get manifest route-planner --namespace prod --revision 7 > /tmp/m7.yaml
                helm get manifest route-planner --namespace prod --revision 8 > /tmp/m8.yaml
                diff --unified /tmp/m7.yaml /tmp/m8.yaml
                ```

                The nicest is the `helm-diff` plugin, which shows what an upgrade *would* change before you
                run it:

                ```bash
                helm plugin install https://github.com/databus23/helm-diff
                helm diff upgrade route-planner charts/route-planner --namespace prod \
                  --values charts/route-planner/values-prod.yaml --set image.tag=4e1a9c2
                helm diff revision route-planner 7 8 --namespace prod
                ```

                I'd add `helm diff upgrade` as a step in the GitLab deploy job for prod, printing the diff
                into the job log before `helm upgrade` runs — it makes every deploy reviewable after the
                fact. Have a good break.
                """
            )
        ),
    ],
)

S13 = Session(
    "2026-01-08T08:45:00Z",
    [
        u(
            w(
                r"""
                Back, rested. Quiet holidays: Priya got paged once, for a certificate alert that turned out
                to be staging. The big year-end invoice run on 2026-01-02 did 14,200 invoices with flat
                memory, Jonas's batching works. Dagny wants to start RDS Proxy this week rather than next.
                Can you give us the Terraform?
                """
            )
        ),
        a(
            w(
                r"""
                Welcome back — a single staging page over two weeks is a quiet Christmas by anyone's
                standard, and 14,200 invoices with flat memory is the streaming change proving itself.

                RDS Proxy needs the database credentials in Secrets Manager (it authenticates to Postgres
                with them) and an IAM role that can read that secret. Since the RDS module already manages
                the master password in Secrets Manager, I'd create a dedicated application user for the
                proxy rather than using the master.

                ```hcl
                # infra/rds_proxy_tracking.tf
                resource "aws_secretsmanager_secret" "tracking_app" {
                  name = "tracking/${var.env}/app-user"
                }

                resource "aws_iam_role" "tracking_proxy" {
                  name = "tracking-${var.env}-rds-proxy"
                  assume_role_policy = jsonencode({
                    Version = "2012-10-17"
                    Statement = [{
                      Effect    = "Allow"
                      Principal = { Service = "rds.amazonaws.com" }
                      Action    = "sts:AssumeRole"
                    }]
                  })
                }

                resource "aws_iam_role_policy" "tracking_proxy_secret" {
                  role = aws_iam_role.tracking_proxy.id
                  policy = jsonencode({
                    Version = "2012-10-17"
                    Statement = [{
                      Effect   = "Allow"
                      Action   = ["secretsmanager:GetSecretValue"]
                      Resource = aws_secretsmanager_secret.tracking_app.arn
                    }]
                  })
                }

                resource "aws_db_proxy" "tracking" {
                  name                   = "tracking-${var.env}"
                  engine_family          = "POSTGRESQL"
                  role_arn               = aws_iam_role.tracking_proxy.arn
                  vpc_subnet_ids         = module.vpc.database_subnets
                  vpc_security_group_ids = [aws_security_group.tracking_db.id]
                  require_tls            = true
                  idle_client_timeout    = 1800

                  auth {
                    auth_scheme = "SECRETS"
                    iam_auth    = "DISABLED"
                    secret_arn  = aws_secretsmanager_secret.tracking_app.arn
                  }
                }

                resource "aws_db_proxy_default_target_group" "tracking" {
                  db_proxy_name = aws_db_proxy.tracking.name

                  connection_pool_config {
                    max_connections_percent      = 75
                    max_idle_connections_percent = 25
                    connection_borrow_timeout    = 5
                  }
                }

                resource "aws_db_proxy_target" "tracking" {
                  db_proxy_name          = aws_db_proxy.tracking.name
                  target_group_name      = aws_db_proxy_default_target_group.tracking.name
                  db_instance_identifier = module.tracking_db.db_instance_identifier
                }

                output "tracking_proxy_endpoint" {
                  value = aws_db_proxy.tracking.endpoint
                }
                ```

                `max_connections_percent = 75` means the proxy uses at most 300 of the database's 400
                connections, leaving the rest for admin sessions and the purge job connecting directly. The
                proxy is billed per vCPU of the underlying instance — for a db.m6g.large, 2 vCPUs at about
                $0.018 per vCPU-hour, so roughly €25 a month.

                One catch: RDS Proxy pins a client connection to a database connection for the rest of the
                session when it sees session-level state — `SET` statements, temporary tables, prepared
                statements in some drivers. Check the proxy's `DatabaseConnectionsCurrentlySessionPinned`
                metric after switching; if it's high, the pooling isn't doing much.
                """
            )
        ),
        u(
            "Deployed in staging. Pinning is at zero, Node's pg driver doesn't use named prepared statements "
            "unless you ask it to. What should tracking-api's values look like now?"
        ),
        a(
            w(
                r"""
                With the proxy in front, the per-pod pool stops being a database-protection setting and
                becomes only a per-pod concurrency setting, so it can go back up a little, and the connection
                budget check changes meaning — it now guards the proxy's client limit, which is far higher.

                ```yaml
                # charts/tracking-api/values-prod.yaml
                autoscaling:
                  minReplicas: 4
                  maxReplicas: 14
                  targetCPU: 65
                  behavior:
                    scaleUp:
                      stabilizationWindowSeconds: 60
                      policies:
                        - type: Pods
                          value: 2
                          periodSeconds: 60
                resources:
                  cpu: 500m
                  memory: 384Mi
                database:
                  host: tracking-prod.proxy-placeholder.eu-central-1.rds.amazonaws.com
                  poolMax: 15
                  acquireTimeoutMs: 1000
                  ssl: require
                  connectionBudget: 1000
                ```

                Two things changed besides the host: `ssl: require`, because the proxy is configured with
                `require_tls = true`, and `poolMax: 15` — 14 × 15 = 210 client connections to the proxy,
                which multiplexes them onto at most 300 database connections (in practice far fewer). Keep
                the purge CronJob on the direct database endpoint, since a once-an-hour job gains nothing
                from the proxy.

                Roll it to prod in the 03:00 UTC quiet hour with Dagny watching the proxy's
                `ClientConnections` and `DatabaseConnections` metrics side by side. If the first morning peak
                shows database connections staying flat while client connections follow the HPA, that's the
                proxy doing its job, and action item 6 from the postmortem can be closed.
                """
            )
        ),
        u(
            w(
                r"""
                Priya's Karpenter draft, for your review before she opens the MR:

                ```yaml
                apiVersion: karpenter.sh/v1
                kind: NodePool
                metadata:
                  name: general
                spec:
                  template:
                    spec:
                      requirements:
                        - key: kubernetes.io/arch
                          operator: In
                          values: ["arm64"]
                        - key: karpenter.sh/capacity-type
                          operator: In
                          values: ["on-demand", "spot"]
                        - key: karpenter.k8s.aws/instance-family
                          operator: In
                          values: ["m7g", "c7g", "r7g"]
                      nodeClassRef:
                        group: karpenter.k8s.aws
                        kind: EC2NodeClass
                        name: default
                  disruption:
                    consolidationPolicy: WhenEmptyOrUnderutilized
                    consolidateAfter: 30s
                  limits:
                    cpu: "64"
                ```
                """
            )
        ),
        a(
            w(
                r"""
                It's a good first draft — the structure is right, and limiting to Graviton families keeps
                the images you've already built working. Five comments for the review:

                1. **Spot for everything is risky here.** route-planner takes 95 seconds to become Ready and has a
                   nightly batch; a spot interruption gives two minutes' warning, which is barely enough. Either keep
                   this pool on-demand and add a second spot NodePool with a taint that only tracking-api tolerates, or
                   at least add `karpenter.sh/do-not-disrupt: "true"` to the route-planner pods during the batch.
                2. **`consolidateAfter: 30s` is aggressive.** With tracking-api's morning ramp, Karpenter may remove a
                   node it will want again five minutes later. Start at `5m` and tighten if the cost report shows waste.
                3. **Missing labels.** Nodes Karpenter creates need `team: platform` and `cost-centre: ops-4471` too,
                   both as node labels in `spec.template.metadata.labels` and as EC2 tags in the EC2NodeClass `tags` —
                   otherwise the new nodes land untagged in Cost Explorer and the weekly report loses them.
                4. **Disruption budgets.** Add `budgets: [{nodes: "10%"}]` plus a window with `nodes: "0"` from 01:00 to
                   04:00 UTC, so consolidation never drains nodes during the route-planner batch or invoice-sync.
                5. **Limits.** `cpu: "64"` is about sixteen m7g.xlarge. Fine as a safety net; add `memory: 256Gi` too,
                   since a memory-heavy pending pod could otherwise keep adding r7g nodes.

                The corrected disruption and template metadata:

                ```yaml
                spec:
                  template:
                    metadata:
                      labels:
                        team: platform
                        cost-centre: ops-4471
                  disruption:
                    consolidationPolicy: WhenEmptyOrUnderutilized
                    consolidateAfter: 5m
                    budgets:
                      - nodes: "10%"
                      - nodes: "0"
                        schedule: "0 1 * * *"
                        duration: 3h
                  limits:
                    cpu: "64"
                    memory: 256Gi
                ```

                The PodDisruptionBudgets you already have still apply: Karpenter respects them when it drains
                a node, so route-planner's `minAvailable: 2` keeps protecting it.
                """
            )
        ),
        u(
            "She'll take all five. She said the do-not-disrupt annotation was new to her, which made me feel "
            "better about not knowing it either."
        ),
        a(
            "Everyone meets that one the first time something important gets consolidated away. For the "
            "route-planner batch, the cleanest version is a CronJob pod template annotation, so only the "
            'batch pods carry it: `karpenter.sh/do-not-disrupt: "true"` under `jobTemplate.spec.template.'
            "metadata.annotations`. The long-running API pods stay normal and the PDB covers them."
        ),
        u(
            "Last thing: the infra repo has grown a lot and the README still says 'TODO'. Jonas leaves in "
            "two weeks and the next person shouldn't have to ask me where things are. Can you write a README "
            "that explains the layout and how to do the common things?"
        ),
        a(
            w(
                r"""
                # brannock-infra

                Terraform and Helm for Brannock Freight's platform on AWS (eu-central-1). Owned by the
                platform team, cost centre ops-4471.

                ## Layout

                | Path | What | Applied how |
                |---|---|---|
                | `bootstrap/` | State bucket and lock table. Applied once, by hand, with local state | `make bootstrap` (don't) |
                | `infra/` | VPC, EKS, node groups, VPN to Almere, RDS, RDS Proxy, depot-portal EC2 | `make plan ENV=...` / `make apply ENV=...` |
                | `envs/` | `staging.tfvars`, `prod.tfvars` | Read by the Makefile |
                | `oncall/` | Opsgenie team, schedule, rotations, heartbeats | `make plan DIR=oncall` |
                | `charts/` | One Helm chart per service plus the `brannock-common` library chart | GitLab deploy jobs in each service repo |
                | `platform/` | Cluster add-ons: LB controller, external-dns, cert-manager, metrics-server, External Secrets, GitLab runner, Karpenter | `helm upgrade --install` from the platform pipeline |
                | `scripts/` | `cost_report.py`, `check_carriers.py` | Run as CronJobs or by hand |

                ## Common tasks

                **Plan and apply infrastructure**

                ```bash
                make plan ENV=staging
                make apply ENV=staging
                ```

                Prod applies only from the main branch pipeline, after a reviewed merge request.

                **Deploy a service by hand** (normally the pipeline does this)

                ```bash
                helm upgrade --install tracking-api charts/tracking-api \
                  --namespace prod \
                  --values charts/tracking-api/values-prod.yaml \
                  --set image.tag=<commit-sha>
                ```

                **Roll back a service**

                ```bash
                helm history tracking-api --namespace prod
                helm rollback tracking-api <revision> --namespace prod
                ```

                **Change the on-call rota:** edit `oncall/terraform.tfvars`, append names rather than
                reordering, open a merge request.

                ## Conventions

                - Every AWS resource and Kubernetes object carries `team: platform` and `cost-centre: ops-4471`
                  (Terraform: provider `default_tags`; charts: `brannock-common`).
                - Images are tagged with the git commit SHA; ECR tags are immutable.
                - Times in runbooks, schedules and incident notes are UTC, 24-hour.
                - Commit messages follow Conventional Commits with the service or module as scope.
                - One chart per service, one values file per environment.
                - Shell commands in docs use long flags.

                ## Where to look when something is wrong

                - `docs/runbooks/` — cutover and rollback runbooks per service, the VM decommission checklist.
                - `docs/postmortems/` — including tracking-api 2025-11-28; read it before changing pool sizes or HPA
                  limits.
                - The weekly cost report lands every Monday at 07:00 UTC.
                """
            )
        ),
    ],
)

CHAT = Chat(
    name="ws-11-platform-migration",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, S12, S13],
    questions=[
        Question(
            "Draft me a CronJob that exports depot stock levels every night.",
            "cost-centre: ops-4471",
            ["pm-rule-labels"],
            "standing-instruction",
        ),
        Question(
            "Draft the notice to depot managers announcing Thursday evening's switchover of their portal.",
            "UTC with a 24-hour clock",
            ["pm-rule-utc"],
            "standing-instruction",
        ),
        Question(
            "I've just finished the RDS Proxy work — what should go in the git log line for it?",
            "Conventional Commits",
            ["pm-rule-commits"],
            "standing-instruction",
        ),
        Question(
            "How do I follow the logs of the previous crashed container of tracking-api in prod?",
            "long flags",
            ["pm-rule-longflags"],
            "standing-instruction",
        ),
        Question(
            "The new stock service needs fewer replicas and another database host outside production. How "
            "should I set that up?",
            "one chart with a values file per environment",
            ["pm-pref-values"],
            "preference",
        ),
        Question(
            "Write me a tool that checks when the TLS certificates on all our ingresses expire.",
            "Python",
            ["pm-pref-python"],
            "preference",
        ),
        Question(
            "What should I get delivered for me and the others at the Karpenter demo on Friday?",
            "vegetarian",
            ["pm-pref-veg"],
            "preference",
        ),
        Question(
            "What's the easiest way for a newcomer to preview infrastructure changes from their laptop?",
            "Makefile",
            ["pm-pref-make"],
            "preference",
        ),
        Question(
            "What's the cluster costing us per month these days?",
            "€1,980",
            ["pm-cost-nov"],
            "knowledge-update",
            ["pm-cost-est", "pm-cost-oct"],
        ),
        Question(
            "Which Kubernetes version is the cluster running?",
            "1.30",
            ["pm-k8s-130"],
            "knowledge-update",
            ["pm-eks-code"],
        ),
        Question(
            "When does the on-call handover happen?",
            "Wednesday at 13:00 UTC",
            ["pm-oncall-wed"],
            "knowledge-update",
            ["pm-oncall-mon"],
        ),
        Question(
            "Who has to approve a production cutover at the moment?",
            "Annika de Wit",
            ["pm-annika"],
            "knowledge-update",
            ["pm-brief"],
        ),
        Question(
            "How long does route-planner need before it's ready to serve?",
            "95 seconds",
            ["pm-start-95"],
            "knowledge-update",
            ["pm-start-40"],
        ),
        Question(
            "How much traffic does tracking-api get at its busiest?",
            "1,200 requests per second",
            ["pm-rps-1200"],
            "knowledge-update",
            ["pm-rps-300"],
        ),
        Question(
            "What instance type do our worker nodes use?",
            "m7g.large",
            ["pm-node-m7g"],
            "knowledge-update",
            ["pm-eks-code"],
        ),
        Question(
            "Which services have we moved onto EKS so far?",
            "route-planner; label-gateway; tracking-api; invoice-sync",
            ["pm-svc-rp", "pm-cost-oct", "pm-svc-trk", "pm-svc-inv"],
            "multi-turn",
        ),
        Question(
            "Who has joined the team since the migration started?",
            "Priya Raman; Jonas Eklund",
            ["pm-people-oct", "pm-jonas"],
            "multi-turn",
        ),
        Question(
            "On what day did the tracking outage happen, and who was carrying the pager that week?",
            "2025-11-28; Priya",
            ["pm-outage", "pm-oncall-wed"],
            "multi-turn",
        ),
        Question(
            "Which depots have printers talking to the label gateway, and on what TCP port do they report status?",
            "Venlo, Duisburg and Antwerp; 9101",
            ["pm-brief", "pm-femke"],
            "multi-turn",
        ),
        Question("Where do the old VMs live?", "colo rack in Almere", ["pm-brief"], "single-fact"),
        Question("Which museum did I take my son to?", "Spoorwegmuseum", ["pm-museum"], "single-fact"),
        Question(
            "Where did Ruben go after he left us?", "shipping insurer in Antwerp", ["pm-people-oct"], "single-fact"
        ),
        Question("Who owns the label-gateway code?", "Femke Jansen", ["pm-femke"], "single-fact"),
        Question(
            "Which port do route-planner's health checks hit?",
            "8081",
            ["pm-chart-rp"],
            "code",
        ),
        Question(
            "What's the DynamoDB table that locks our Terraform state called?",
            "brannock-tf-locks",
            ["pm-code-backend"],
            "code",
        ),
        Question(
            "Which function in the weekly spend script does the Cost Explorer grouping?",
            "spend_by_tag",
            ["pm-code-cost"],
            "code",
        ),
        Question(
            "What CPU utilisation does the tracking-api autoscaler aim for?",
            "65",
            ["pm-hpa"],
            "code",
        ),
        Question(
            "Give tracking-api the same protection against node drains that we gave the first service we moved.",
            "minAvailable: 2",
            ["pm-pdb-rp"],
            "request-context",
        ),
        Question(
            "Have the weekly spend report post to our Slack channel as well.",
            "cost_report.py",
            ["pm-code-cost"],
            "request-context",
        ),
        Question(
            "Turn the outage write-up into a half-page version for the ops managers.",
            "Postmortem: tracking-api outage 2025-11-28",
            ["pm-postmortem"],
            "request-context",
        ),
    ],
)
