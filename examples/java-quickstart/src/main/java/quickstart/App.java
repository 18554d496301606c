package quickstart;

import io.github.pulumisvc.svc.Disk;
import io.github.pulumisvc.svc.DiskArgs;
import io.github.pulumisvc.svc.FirewallRule;
import io.github.pulumisvc.svc.FirewallRuleArgs;
import io.github.pulumisvc.svc.Instance;
import io.github.pulumisvc.svc.InstanceArgs;
import io.github.pulumisvc.svc.K3sCluster;
import io.github.pulumisvc.svc.K3sNode;
import io.github.pulumisvc.svc.K3sNodeArgs;
import io.github.pulumisvc.svc.K3sSecret;
import io.github.pulumisvc.svc.K3sSecretArgs;
import io.github.pulumisvc.svc.K3sService;
import io.github.pulumisvc.svc.K3sServiceArgs;
import io.github.pulumisvc.svc.SvcFunctions;
import io.github.pulumisvc.svc.Vpc;
import io.github.pulumisvc.svc.VpcArgs;
import io.github.pulumisvc.svc.inputs.GetImageArgs;
import io.github.pulumisvc.svc.inputs.GetPlanArgs;
import io.github.pulumisvc.svc.inputs.K3sPortArgs;
import io.github.pulumisvc.svc.outputs.GetImageResult;
import io.github.pulumisvc.svc.outputs.GetPlanResult;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.resources.CustomResourceOptions;
import com.pulumi.resources.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Quickstart in Java: a private network, two web instances on it behind firewall rules, a data
 * disk, a managed k3s cluster with both instances as nodes, a secret, and a service that uses it.
 * The same stack as examples/quickstart (TypeScript) and examples/yaml-quickstart, through the
 * provider plugin and the generated Java SDK (sdk/java, compiled in by pom.xml).
 */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    private static void stack(Context ctx) {
        var config = ctx.config();
        var region = config.get("region").orElse("NA_01");
        var adminCidr = config.get("adminCidr").orElse("203.0.113.0/24");
        // A secret Output, secret still after the default fills an unset key.
        var dbPassword = config.getSecret("dbPassword").applyValue(p -> p.orElse("change-me"));

        // Pick a plan and an image by name (invokes of the plugin's lookups).
        var planId = SvcFunctions.getPlan(GetPlanArgs.builder().name(config.get("plan").orElse("lightning-2")).build())
            .applyValue(GetPlanResult::id);
        var imageId = SvcFunctions.getImage(GetImageArgs.builder().name(config.get("image").orElse("Ubuntu 24.04 LTS")).build())
            .applyValue(GetImageResult::id);

        // No name: Pulumi names it from "app-net" and a suffix, so two stacks of this program can share a workspace.
        var network = new Vpc("app-net", VpcArgs.builder()
            .description("quickstart web tier")
            .range("10.42.0.0/16")
            .build());

        var web = new ArrayList<Instance>();
        for (int n = 1; n <= 2; n++) {
            var instance = new Instance("web-" + n, InstanceArgs.builder()
                .name("web-" + n)
                .planId(planId)
                .imageId(imageId)
                .region(region)
                .vpcIds(network.id().applyValue(List::of))
                .firewallEnabled(true)
                .build());
            web.add(instance);

            // Default-deny from the first rule: allow SSH from the admin range and HTTP from anywhere.
            new FirewallRule("web-" + n + "-ssh", FirewallRuleArgs.builder()
                .instanceId(instance.id()).type("IPv4").protocol("TCP").action("ACCEPT")
                .portStart(22).remote(adminCidr).priority(10).description("ssh from admins")
                .build());
            new FirewallRule("web-" + n + "-http", FirewallRuleArgs.builder()
                .instanceId(instance.id()).type("IPv4").protocol("TCP").action("ACCEPT")
                .portStart(8080).priority(5).description("web service")
                .build());
        }

        var data = new Disk("data", DiskArgs.builder()
            .name("web-1-data")
            .size(20.0 * 1024 * 1024 * 1024)
            .backend("LOCAL")
            .region(region)
            .instanceId(web.get(0).id())
            .build());

        var cluster = new K3sCluster("cluster");
        var afterCluster = CustomResourceOptions.builder().dependsOn(cluster).build();
        var nodes = new ArrayList<Resource>();
        for (int i = 0; i < web.size(); i++) {
            nodes.add(new K3sNode("node-" + (i + 1), K3sNodeArgs.builder().instanceId(web.get(i).id()).build(), afterCluster));
        }

        var secret = new K3sSecret("app-secret", K3sSecretArgs.builder()
            .name("app-secret")
            .data(dbPassword.applyValue(p -> Map.of("DATABASE_PASSWORD", p)))
            .build(), afterCluster);

        var service = new K3sService("web", K3sServiceArgs.builder()
            .name("web")
            .image("nginx:1.27")
            .mode("SPREAD")
            .replicas(2)
            .targetInstanceIds(Output.all(web.get(0).id(), web.get(1).id()))
            .ports(K3sPortArgs.builder().hostPort(8080).containerPort(80).protocol("TCP").http(true).build())
            .environment(Map.of("APP_ENV", "production"))
            .secretRefs(secret.name().applyValue(List::of))
            .build(), CustomResourceOptions.builder().dependsOn(nodes).build());

        var instances = new ArrayList<Output<Map<String, Object>>>();
        for (var w : web) {
            instances.add(Output.tuple(w.name(), w.id(), w.ipv4Address(), w.privateIps(), w.state()).applyValue(t -> Map.<String, Object>of(
                "name", t.t1, "id", t.t2, "publicIpv4", t.t3, "privateIps", t.t4, "state", t.t5)));
        }
        ctx.export("vpcRange", network.range());
        ctx.export("instances", Output.all(instances));
        ctx.export("dataDisk", Output.tuple(data.id(), data.instanceId(), data.size()).applyValue(t -> Map.<String, Object>of(
            "id", t.t1, "attachedTo", t.t2, "sizeBytes", t.t3)));
        ctx.export("clusterName", cluster.name());
        ctx.export("clusterStatus", cluster.status());
        ctx.export("serviceStatus", service.status());
        ctx.export("serviceReplicas", Output.tuple(service.availableReplicas(), service.desiredReplicas())
            .applyValue(t -> String.format("%d/%d", t.t1, t.t2)));
        ctx.export("url", Output.format("http://%s:8080", web.get(0).ipv4Address()));
    }
}
